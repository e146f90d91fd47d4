import { sha256Hex } from '@svc/auth';
import { type ErrorCode, httpStatusOf, operationPath } from '@svc/contract';
import {
  beginOutcome,
  type BeginRequest,
  decideIdempotency,
  evolveIdempotency,
  type IdempotencyCommand,
  initialIdempotencyState,
  type IdempotencyOutcome,
  type RequestFingerprint,
} from '@svc/domain';
import { ApiError } from '@svc/gateway';
// The gateway's header rules for Idempotency-Key; internal to its pipeline.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { checkTransportHeaders, requireIdempotencyKey } from '../../libs/gateway/src/pipeline/request-checks';
import { NOW_MS, QUOTE_BODY } from './vector-fixtures';

/** IDEMPOTENCY_LEASE_SECONDS' default: how long a request holds its key before a retry may run it again. */
const LEASE_MS = 120_000;
const QUOTE = operationPath('quote');
const fingerprint = (body: string, path = QUOTE): RequestFingerprint => ({
  method: 'POST',
  path,
  bodySha256: sha256Hex(body),
});
const SAME = fingerprint(QUOTE_BODY);
const OTHER_BODY = QUOTE_BODY.replace('250000000', '250000001');
const begin = (fp: RequestFingerprint, now: number, requestId: string): BeginRequest => ({
  type: 'BeginRequest',
  data: { fingerprint: fp, requestId, now, leaseMs: LEASE_MS },
});
const complete = (now: number): IdempotencyCommand => ({
  type: 'CompleteRequest',
  data: {
    requestId: 'first',
    resource: { kind: 'intent_session', id: 'is_8c1f0e2a4b6d4f7e9a0b1c2d3e4f5a6b' },
    httpStatus: 200,
    now,
  },
});
const release = (now: number): IdempotencyCommand => ({
  type: 'ReleaseRequest',
  data: { requestId: 'first', httpStatus: 503, code: 'dependency_unavailable', now },
});
const first = begin(SAME, NOW_MS, 'first');

const SCENARIOS: [string, string, IdempotencyCommand[], RequestFingerprint, number][] = [
  ['first-use', 'A key never used.', [], SAME, NOW_MS],
  [
    'same-body-after-completion',
    'The same key and body bytes once the first request completed: its result again.',
    [first, complete(NOW_MS + 800)],
    SAME,
    NOW_MS + 5_000,
  ],
  [
    'other-body-after-completion',
    'The same key with other body bytes.',
    [first, complete(NOW_MS + 800)],
    fingerprint(OTHER_BODY),
    NOW_MS + 5_000,
  ],
  [
    'other-endpoint',
    'The same key and body on another endpoint.',
    [first, complete(NOW_MS + 800)],
    fingerprint(QUOTE_BODY, operationPath('submitted')),
    NOW_MS + 5_000,
  ],
  [
    'same-body-in-progress',
    'The same key and body while the first request still runs.',
    [first],
    SAME,
    NOW_MS + 1_000,
  ],
  [
    'other-body-in-progress',
    'Other body bytes while the first request still runs.',
    [first],
    fingerprint(OTHER_BODY),
    NOW_MS + 1_000,
  ],
  [
    'same-body-after-lease',
    'The first request’s process died: once its lease ends the same bytes run again.',
    [first],
    SAME,
    NOW_MS + LEASE_MS,
  ],
  [
    'same-body-after-error',
    'The first request answered an error and made nothing: the same bytes run again.',
    [first, release(NOW_MS + 800)],
    SAME,
    NOW_MS + 5_000,
  ],
  [
    'other-body-after-error',
    'After an error, the key still belongs to its first body.',
    [first, release(NOW_MS + 800)],
    fingerprint(OTHER_BODY),
    NOW_MS + 5_000,
  ],
];

/** How the gateway answers an outcome (libs/gateway external-request.pipeline.ts runIdempotent). */
function answer(outcome: IdempotencyOutcome) {
  switch (outcome.kind) {
    case 'run':
      return { outcome: 'run' };
    case 'replay':
      return { outcome: 'replay', resource: outcome.resource };
    case 'reused':
      return {
        outcome: 'refused',
        status: httpStatusOf('idempotency_key_reused'),
        code: 'idempotency_key_reused',
      };
    case 'in_progress':
      return {
        outcome: 'refused',
        status: httpStatusOf('idempotency_request_in_progress'),
        code: 'idempotency_request_in_progress',
        retryAfterSeconds: outcome.retryAfterSeconds,
      };
  }
}

const codeOf = (check: () => unknown): { ok: true } | { ok: false; status: number; code: ErrorCode } => {
  try {
    check();
    return { ok: true };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, status: error.status, code: error.code };
  }
};

/** idempotency.json: the key's rules of libs/domain run on scenarios, and the gateway's rules for the header itself. */
export function idempotencyVectors(): object {
  return {
    leaseMs: LEASE_MS,
    scenarios: SCENARIOS.map(([name, description, before, fp, now]) => {
      const state = before.reduce(
        (s, command) => decideIdempotency(command, s).reduce(evolveIdempotency, s),
        initialIdempotencyState,
      );
      return {
        name,
        description,
        before: before.map((c) => ({
          type: c.type,
          at: c.data.now,
          ...('fingerprint' in c.data ? { fingerprint: c.data.fingerprint } : {}),
        })),
        request: { fingerprint: fp, at: now },
        expected: answer(beginOutcome(begin(fp, now, 'second'), state)),
      };
    }),
    keyHeader: [
      ['POST without Idempotency-Key', 'POST', undefined],
      ['POST with an empty key', 'POST', ''],
      ['POST with a key of 1 character', 'POST', 'k'],
      ['POST with a key of 255 characters', 'POST', 'k'.repeat(255)],
      ['POST with a key of 256 characters', 'POST', 'k'.repeat(256)],
      ['GET with an Idempotency-Key', 'GET', 'k'],
      ['GET without one', 'GET', undefined],
    ].map(([description, method, key]) => {
      const headers = key === undefined ? {} : { 'idempotency-key': key };
      const check = () =>
        method === 'POST' ? requireIdempotencyKey(headers) : checkTransportHeaders(method!, headers, false);
      return { description, method, idempotencyKey: key ?? null, expected: codeOf(check) };
    }),
  };
}
