import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSigningStringV2,
  sha256Hex,
  signRequestV1,
  signRequestV2,
  signWebhook,
  verifyWebhook,
} from '@intent-service/partner-client';
import { authenticateRequest } from '@svc/auth';

const root = join(__dirname, '..', '..');
const doc = readFileSync(join(root, 'docs', 'partners', 'signing.md'), 'utf8');
const dev = JSON.parse(readFileSync(join(root, 'config', 'partners.dev.json'), 'utf8')) as {
  partners: { partnerId: string; secret: string; authVersion: 1 | 2 }[];
};

/** The first capture of `pattern` in the page; fails the test when the page no longer has it. */
function read(pattern: RegExp): string {
  const match = pattern.exec(doc);
  if (!match?.[1]) throw new Error(`docs/partners/signing.md no longer matches ${pattern}`);
  return match[1];
}

const example = {
  secret: read(/^secret:\s+(\S+)$/m),
  partnerId: read(/^X-Partner-Id:\s+(\S+)$/m),
  timestamp: read(/^X-Timestamp:\s+(\d+)$/m),
  nonce: read(/^X-Nonce:\s+(\S+)$/m),
  idempotencyKey: read(/^Idempotency-Key:\s+(\S+)$/m),
  path: read(/^POST\s+(\/\S+)$/m),
  body: read(/^body:\s+(\{.*\})$/m),
  bodySha256: read(/The body's SHA-256 is `([0-9a-f]{64})`/),
  // The worked block, not the template above it (whose lines hold `<placeholders>`).
  signingString: read(/```text\n(SERVICE-EXTERNAL-REQUEST\n[^`<]*?)\n```/),
  signature: read(/and `X-Signature` is `([0-9a-f]{64})`/),
  getNonce: read(/the nonce\s+`([^`]+)` signs/),
  getSignature: read(/Its\s+signature is `([0-9a-f]{64})`/),
  v1Secret: read(/signed by `legacy-partner` \(secret `([^`]+)`\)/),
  v1Signature: read(/\(secret `[^`]+`\):\s+`([0-9a-f]{64})`/),
  webhookBody: read(/```text\n(\{"eventId".*\})\n```/),
  webhookSignature: read(/the signature is `([0-9a-f]{64})`/),
};

/** The service's own verifier (libs/auth), at the example's instant, with the committed dev partners. */
function verify(method: string, path: string, headers: Record<string, string>, body: string) {
  return authenticateRequest(
    {
      method,
      rawUrl: path,
      rawHeaders: Object.entries(headers).flat(),
      body: Buffer.from(body, 'utf8'),
    },
    (id) => dev.partners.find((p) => p.partnerId === id),
    Number(example.timestamp),
  );
}

describe('docs/partners/signing.md: the worked example', () => {
  const parts = {
    partnerId: example.partnerId,
    timestamp: example.timestamp,
    nonce: example.nonce,
    method: 'POST',
    path: example.path,
    idempotencyKey: example.idempotencyKey,
    bodySha256: sha256Hex(example.body),
  };

  it('uses the committed dev partners, whose secrets are public and throw-away', () => {
    expect(dev.partners.find((p) => p.partnerId === example.partnerId)?.secret).toBe(example.secret);
    expect(dev.partners.find((p) => p.partnerId === 'legacy-partner')?.secret).toBe(example.v1Secret);
  });

  it('states the body hash, the string to sign and the v2 signature the SDK computes', () => {
    expect(example.bodySha256).toBe(parts.bodySha256);
    expect(example.signingString).toBe(buildSigningStringV2(parts));
    expect(example.signature).toBe(signRequestV2(example.secret, parts));
  });

  it('signs requests the service accepts: the v2 quote and ping, and the v1 quote', () => {
    const v2 = (nonce: string, signature: string, key?: string) => ({
      'X-Partner-Id': example.partnerId,
      'X-Timestamp': example.timestamp,
      'X-Service-Auth-Version': '2',
      'X-Nonce': nonce,
      'X-Signature': signature,
      ...(key ? { 'Idempotency-Key': key, 'Content-Type': 'application/json' } : {}),
    });
    expect(
      verify(
        'POST',
        example.path,
        v2(example.nonce, example.signature, example.idempotencyKey),
        example.body,
      ),
    ).toMatchObject({ ok: true, authVersion: 2 });
    expect(verify('GET', '/api/external/ping', v2(example.getNonce, example.getSignature), '')).toMatchObject(
      { ok: true, authVersion: 2 },
    );
    expect(example.v1Signature).toBe(signRequestV1(example.v1Secret, example.timestamp, example.body));
    expect(
      verify(
        'POST',
        example.path,
        {
          'X-Partner-Id': 'legacy-partner',
          'X-Timestamp': example.timestamp,
          'X-Signature': example.v1Signature,
          'Idempotency-Key': example.idempotencyKey,
          'Content-Type': 'application/json',
        },
        example.body,
      ),
    ).toMatchObject({ ok: true, authVersion: 1 });
  });

  it('a changed byte of the body is refused: the example is not accepted by accident', () => {
    const result = verify(
      'POST',
      example.path,
      {
        'X-Partner-Id': example.partnerId,
        'X-Timestamp': example.timestamp,
        'X-Service-Auth-Version': '2',
        'X-Nonce': example.nonce,
        'X-Signature': example.signature,
        'Idempotency-Key': example.idempotencyKey,
        'Content-Type': 'application/json',
      },
      example.body.replace('250000000', '250000001'),
    );
    expect(result).toMatchObject({ ok: false, code: 'external_auth_signature_invalid' });
  });

  it('states a webhook signature the SDK verifies', () => {
    expect(example.webhookSignature).toBe(
      signWebhook(example.secret, example.timestamp, example.webhookBody),
    );
    const event = JSON.parse(example.webhookBody) as { eventId: string };
    expect(
      verifyWebhook(
        example.webhookBody,
        {
          'x-partner-id': example.partnerId,
          'x-timestamp': example.timestamp,
          'x-signature': example.webhookSignature,
          'x-service-event-id': event.eventId,
        },
        { partnerId: example.partnerId, secret: example.secret, nowMs: Number(example.timestamp) },
      ),
    ).toMatchObject({ ok: true, event: { eventId: event.eventId } });
  });
});
