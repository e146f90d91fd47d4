import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { authenticateRequest, canonicalizeRequestPath, type PartnerAuthConfig } from '@svc/auth';
import { ERROR_CODES, type OpenApiDocument } from '@svc/contract';
import { nonceAvailable } from '@svc/domain';
import {
  buildSigningStringV2,
  sha256Hex,
  signRequestV1,
  signRequestV2,
  verifyWebhook,
} from '@svc/partner-client';
import { strictOpenApiValidator } from '@svc/testing';
// The SDK's header assembly per try is internal to it; the vectors pin its output.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { authHeaders } from '../../libs/partner-client/src/transport/auth-headers';
import { verifyTypedData } from 'viem';
import { REPO_ROOT, VECTOR_BUILDERS, VECTORS_DIR, vectorDocument } from './vector-documents';
import { bytesOf } from './vector-fixtures';

/* eslint-disable @typescript-eslint/no-explicit-any -- the vector files are read as the JSON an SDK reads */
const load = (file: string): any => JSON.parse(readFileSync(join(REPO_ROOT, VECTORS_DIR, file), 'utf8'));
const REGENERATE = 'run `npm run vectors` and commit sdks/vectors';
/** `[label, case]` rows for it.each. */
const rows = (cases: any[], label = 'name'): [string, any][] => cases.map((c) => [String(c[label]), c]);

describe('sdks/vectors on disk', () => {
  it.each(Object.keys(VECTOR_BUILDERS))('%s holds what the service code generates now', async (file) => {
    const generated: unknown = JSON.parse(JSON.stringify(await vectorDocument(file)));
    try {
      expect(load(file)).toEqual(generated);
    } catch (error) {
      throw new Error(
        `${VECTORS_DIR}/${file} differs from the generator's output: ${REGENERATE}\n${String(error)}`,
      );
    }
  });

  it('is byte for byte what `npm run vectors` writes (`-- --check` passes)', () => {
    // A child process: Prettier 3 loads its plugins with dynamic import(), which jest's VM does not allow.
    const result = spawnSync(process.execPath, ['tools/run-ts.js', 'tools/vectors/generate.ts', '--check'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
  });
});

describe('signing.json', () => {
  const { cases } = load('signing.json');
  const lookupOf = (c: any) => (id: string) =>
    id === c.partnerId
      ? ({ partnerId: c.partnerId, secret: c.secret, authVersion: c.authVersion } as PartnerAuthConfig)
      : undefined;

  it.each(rows(cases))('%s verifies with the service’s verifier (libs/auth)', (_name, c: any) => {
    const result = authenticateRequest(
      {
        method: c.method,
        rawUrl: c.path,
        rawHeaders: Object.entries(c.headers).flat() as string[],
        body: bytesOf(c.body),
      },
      lookupOf(c),
      Number(c.timestamp),
    );
    expect(result).toMatchObject({
      ok: true,
      partnerId: c.partnerId,
      authVersion: c.authVersion,
      path: c.canonicalPath,
    });
    expect(canonicalizeRequestPath(c.path)).toEqual({ ok: true, path: c.canonicalPath });
  });

  it.each(rows(cases))('%s: the TypeScript SDK signs it with the same headers', (_name, c: any) => {
    const body = bytesOf(c.body);
    expect(sha256Hex(body)).toBe(c.bodySha256);
    const parts = {
      ...c,
      path: c.canonicalPath,
      idempotencyKey: c.idempotencyKey ?? '',
      bodySha256: c.bodySha256,
    };
    const signedMessage = bytesOf(c.signedMessage);
    if (c.authVersion === 2) {
      expect(buildSigningStringV2(parts)).toBe(signedMessage.toString('utf8'));
      expect(signRequestV2(c.secret, parts)).toBe(c.signature);
    } else {
      expect(Buffer.concat([Buffer.from(`${c.timestamp}.`), body])).toEqual(signedMessage);
      expect(signRequestV1(c.secret, c.timestamp, body)).toBe(c.signature);
    }
    const request = {
      method: c.method,
      path: c.canonicalPath,
      body: c.method === 'POST' ? body : null,
      idempotencyKey: c.idempotencyKey,
    };
    const credentials = { partnerId: c.partnerId, secret: c.secret, authVersion: c.authVersion };
    expect(authHeaders(credentials, request, Number(c.timestamp), c.nonce ?? '')).toEqual(c.headers);
  });
});

describe('paths.json and verify.json', () => {
  it.each(rows(load('paths.json').cases, 'input'))('%s canonicalizes as stated', (_input, c: any) => {
    expect(canonicalizeRequestPath(c.input)).toEqual(
      c.ok ? { ok: true, path: c.canonical } : { ok: false, reason: c.reason },
    );
  });

  const { partners, cases } = load('verify.json');
  const lookup = (id: string) => (partners as PartnerAuthConfig[]).find((p) => p.partnerId === id);
  it.each(rows(cases))('%s gets its stated answer from the verifier', (_name, c: any) => {
    const verify = (r: any) =>
      authenticateRequest(
        { method: r.method, rawUrl: r.path, rawHeaders: r.headers.flat(), body: bytesOf(r.body) },
        lookup,
        c.nowMs,
      );
    const result = verify(c.request);
    if (!result.ok) {
      expect({ ok: false, status: ERROR_CODES[result.code].status, code: result.code }).toEqual(c.expected);
      return;
    }
    const earlier = c.after ? verify(c.after) : undefined;
    if (earlier?.ok && earlier.nonce === result.nonce) {
      const free = nonceAvailable(
        { status: 'used', tupleHash: earlier.requestTupleHash! },
        result.requestTupleHash!,
      );
      if (!free) {
        expect(c.expected).toEqual({ ok: false, status: 409, code: 'external_auth_nonce_conflict' });
        return;
      }
    }
    expect({
      ok: true,
      partnerId: result.partnerId,
      authVersion: result.authVersion,
      canonicalPath: result.path,
      secret: result.secret,
    }).toEqual(c.expected);
  });
});

describe('webhooks.json', () => {
  it.each(rows(load('webhooks.json').cases))(
    '%s gets its verdict from the SDK’s verifyWebhook',
    (_name, c: any) => {
      const { partnerId, secrets, nowMs, toleranceMs } = c.verifier;
      const verdict = verifyWebhook(bytesOf(c.body), c.headers, {
        partnerId,
        secret: secrets,
        nowMs,
        toleranceMs,
      });
      expect(verdict.ok ? { ok: true, eventId: verdict.event.eventId } : verdict).toEqual(c.expected);
    },
  );
});

describe('errors.json against docs/openapi.json', () => {
  const openapi = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/openapi.json'), 'utf8')) as OpenApiDocument;
  const { cases, fieldErrors } = load('errors.json');
  const errorCode = openapi.components.schemas.ErrorCode as {
    enum: string[];
    'x-enumDescriptions': Record<string, string>;
  };

  it('has one case per code of the ErrorCode enum, and no other', () => {
    expect(cases.map((c: any) => c.code).sort()).toEqual([...errorCode.enum].sort());
  });

  it('states each code with the HTTP status the document gives it', () => {
    const wrong = cases.filter(
      (c: any) => !errorCode['x-enumDescriptions'][c.code].startsWith(`${c.status}: `),
    );
    expect(wrong).toEqual([]);
  });

  it('gives every example body, and the field-errors body, the documented ErrorResponse shape (no other field)', () => {
    const errorsOf = strictOpenApiValidator(openapi);
    const validate = (body: unknown) => errorsOf('ErrorResponse', body);
    const bodies = [...cases.map((c: any) => c.example), fieldErrors.response];
    expect(bodies.flatMap((body: any) => validate(body).map((e) => `${body.code}${e}`))).toEqual([]);
    expect(cases.every((c: any) => c.example.code === c.code && c.example.error.length > 0)).toBe(true);
  });
});

describe('wallet-authorization.json', () => {
  const { cases } = load('wallet-authorization.json');

  it.each(rows(cases))(
    "%s: the signature recovers to the key's address over the typed data as returned",
    async (_name, c: any) => {
      const typedData = c.walletAuthorization;
      expect(await verifyTypedData({ address: c.address, ...typedData, signature: c.signature })).toBe(true);
      // Another message (one field changed) does not verify: the vector signs the message, not a constant.
      expect(
        await verifyTypedData({
          address: c.address,
          ...typedData,
          message: { ...typedData.message, attemptId: 'at_other' },
          signature: c.signature,
        }),
      ).toBe(false);
    },
  );
});
