import { authenticateRequest, canonicalizeRequestPath } from '@svc/auth';
import { API_PREFIX, operationPath } from '@svc/contract';
import { type RequestDraft, signDraft } from './signed-request';
import {
  ATTEMPT_ID,
  bytesField,
  INTENT_SESSION_ID,
  nonce,
  NOW_MS,
  PARTNERS,
  QUOTE_BODY,
  UNUSUAL_BODY,
  V1_PARTNER,
  V2_PARTNER,
} from './vector-fixtures';

const PING = operationPath('ping');
const QUOTE = operationPath('quote');
const PREPARE = operationPath('prepare').replace('{intentSessionId}', INTENT_SESSION_ID);
const STATUS = operationPath('status').replace('{attemptId}', ATTEMPT_ID);
const T = String(NOW_MS);
const EMPTY = Buffer.alloc(0);

const v2 = (draft: Partial<RequestDraft>): RequestDraft => ({
  authVersion: 2,
  partnerId: V2_PARTNER.partnerId,
  secret: V2_PARTNER.secret,
  method: 'GET',
  path: PING,
  body: EMPTY,
  idempotencyKey: null,
  timestamp: T,
  nonce: nonce(1),
  ...draft,
});
const v1 = (draft: Partial<RequestDraft>): RequestDraft =>
  v2({ authVersion: 1, partnerId: V1_PARTNER.partnerId, secret: V1_PARTNER.secret, nonce: null, ...draft });
const post = (path: string, body: string, key: string) => ({
  method: 'POST' as const,
  path,
  body: Buffer.from(body, 'utf8'),
  idempotencyKey: key,
});

const CASES: [name: string, description: string, draft: RequestDraft][] = [
  ['v2-get-ping', 'A GET: no body (the SHA-256 of zero bytes), an empty idempotency-key line.', v2({})],
  ['v2-get-with-path-id', 'A GET of a resource by id.', v2({ path: STATUS, nonce: nonce(2) })],
  [
    'v2-get-trailing-slash',
    'Sent with one trailing slash: the canonical path, without it, is what is signed.',
    v2({ path: `${PING}/`, nonce: nonce(3) }),
  ],
  [
    'v2-get-deployment-prefix',
    `The service deployed under a path prefix: the prefix is part of the signed path (before ${API_PREFIX}).`,
    v2({ path: `/partner-gateway${PING}`, nonce: nonce(4) }),
  ],
  [
    'v2-post-quote',
    'docs/partners/signing.md worked example: a compact JSON body.',
    v2({ ...post(QUOTE, QUOTE_BODY, 'quote-order-1042'), nonce: '2f6c1a0e-4b7d-4c1e-9a57-5a3f0e8b9d21' }),
  ],
  [
    'v2-post-quote-retry',
    'A retry of v2-post-quote: the same Idempotency-Key and body bytes, a fresh timestamp and nonce.',
    v2({ ...post(QUOTE, QUOTE_BODY, 'quote-order-1042'), timestamp: String(NOW_MS + 1500), nonce: nonce(5) }),
  ],
  [
    'v2-post-bytes-as-sent',
    'CRLF, a tab, indentation, a trailing newline, non-ASCII text and a \\u escape: hash these bytes, never re-serialize.',
    v2({ ...post(PREPARE, UNUSUAL_BODY, 'prepare-7'), nonce: nonce(6) }),
  ],
  [
    'v2-post-empty-body',
    'A POST with no body (prepare accepts none): the body hash is that of zero bytes.',
    v2({ ...post(PREPARE, '', 'prepare-8'), nonce: nonce(7) }),
  ],
  ['v1-get-ping', 'Legacy scheme: the signed message is `<timestamp>.` and nothing after it.', v1({})],
  [
    'v1-post-quote',
    'Legacy scheme over the worked example body.',
    v1(post(QUOTE, QUOTE_BODY, 'quote-order-1042')),
  ],
  [
    'v1-post-bytes-as-sent',
    'Legacy scheme over the bytes of v2-post-bytes-as-sent.',
    v1(post(PREPARE, UNUSUAL_BODY, 'prepare-9')),
  ],
];

/** signing.json: each case's inputs, what is signed and the headers sent, each verified by libs/auth. */
export function signingVectors(): object {
  const lookup = (id: string) => PARTNERS.find((p) => p.partnerId === id);
  return {
    cases: CASES.map(([name, description, draft]) => {
      const signed = signDraft(draft);
      const canonical = canonicalizeRequestPath(draft.path);
      const verdict = authenticateRequest(
        { method: draft.method, rawUrl: draft.path, rawHeaders: signed.headers.flat(), body: draft.body },
        lookup,
        NOW_MS,
      );
      if (!canonical.ok || !verdict.ok)
        throw new Error(`signing case ${name} does not verify: ${JSON.stringify(verdict)}`);
      return {
        name,
        description,
        authVersion: draft.authVersion,
        partnerId: draft.partnerId,
        secret: draft.secret,
        method: draft.method,
        path: draft.path,
        canonicalPath: canonical.path,
        timestamp: draft.timestamp,
        nonce: draft.nonce,
        idempotencyKey: draft.idempotencyKey,
        body: bytesField(draft.body),
        bodySha256: signed.bodySha256,
        signedMessage: bytesField(signed.signedMessage),
        signature: signed.signature,
        headers: Object.fromEntries(signed.headers),
      };
    }),
  };
}
