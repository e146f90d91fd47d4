import { authenticateRequest, type AuthRequest } from '@svc/auth';
import { httpStatusOf } from '@svc/contract';
import { nonceAvailable } from '@svc/domain';
import { VERIFY_CASES, type VerifyCase, type WireRequest } from './verify-cases';
import { bytesField, NOW_MS, PARTNERS } from './vector-fixtures';

/** What the service answers: libs/auth's verifier, then the nonce binding of libs/domain for `after`. */
function outcome(c: VerifyCase) {
  const lookup = (id: string) => PARTNERS.find((p) => p.partnerId === id);
  const now = c.nowMs ?? NOW_MS;
  const verify = (r: WireRequest) =>
    authenticateRequest(
      { ...r, rawUrl: r.path, rawHeaders: r.headers.flat() } satisfies AuthRequest,
      lookup,
      now,
    );
  const result = verify(c.request);
  if (!result.ok) return { ok: false, status: httpStatusOf(result.code), code: result.code };
  const earlier = c.after ? verify(c.after) : undefined;
  if (earlier?.ok && earlier.requestTupleHash !== null && result.nonce === earlier.nonce) {
    const bound = { status: 'used' as const, tupleHash: earlier.requestTupleHash };
    if (!nonceAvailable(bound, result.requestTupleHash ?? '')) {
      return {
        ok: false,
        status: httpStatusOf('external_auth_nonce_conflict'),
        code: 'external_auth_nonce_conflict',
      };
    }
  }
  return {
    ok: true,
    partnerId: result.partnerId,
    authVersion: result.authVersion,
    canonicalPath: result.path,
    secret: result.secret,
  };
}

const wire = (r: WireRequest) => ({
  method: r.method,
  path: r.path,
  headers: r.headers,
  body: bytesField(r.body),
});

/** verify.json: requests as received, and what the service's verifier answers to each. */
export function verifyVectors(): object {
  return {
    partners: PARTNERS,
    defaultNowMs: NOW_MS,
    cases: VERIFY_CASES.map((c) => {
      const expected = outcome(c);
      const declared = c.expect.ok ? { ok: true } : { ok: false, code: c.expect.code };
      if (expected.ok !== declared.ok || (!declared.ok && expected.code !== declared.code))
        throw new Error(`verify case ${c.name}: the verifier answers ${JSON.stringify(expected)}`);
      return {
        name: c.name,
        description: c.description,
        nowMs: c.nowMs ?? NOW_MS,
        ...(c.after ? { after: wire(c.after) } : {}),
        request: wire(c.request),
        expected,
      };
    }),
  };
}
