import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifyWebhook, type WebhookRejection } from '@svc/partner-client';
// The dispatcher's header code is not exported from @svc/webhooks (nothing outside it needs it); read it where it is.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { webhookRequestHeaders } from '../../libs/webhooks/src/delivery/webhook-request-headers';
import { bytesField, NOW_MS, ROTATING_PARTNER, V2_PARTNER } from './vector-fixtures';

const REPO_ROOT = join(__dirname, '..', '..');
/** docs/partners/signing.md's webhook example. */
const SMALL_BODY = '{"eventId":"ev_01","event":"settled","attemptId":"at_01","partnerId":"demo-partner"}';
/** A real `settled` body, captured from a run on the sandbox by `npm run openapi:capture`. */
function capturedSettled(): string {
  const captured = JSON.parse(
    readFileSync(join(REPO_ROOT, 'tools/openapi/examples/captured.json'), 'utf8'),
  ) as {
    webhooks: { event: string }[];
  };
  return JSON.stringify(captured.webhooks.find((w) => w.event === 'settled'));
}

type Headers = Record<string, string | string[]>;
interface Delivery {
  partnerId: string;
  secret: string;
  body: string;
  eventId?: string;
  timestamp?: number;
}
/** What the dispatcher sends: its own header code over the body bytes. */
function deliver(d: Delivery): { headers: Headers; body: Buffer } {
  const body = Buffer.from(d.body, 'utf8');
  const eventId = d.eventId ?? (JSON.parse(d.body) as { eventId: string }).eventId;
  const headers = webhookRequestHeaders({
    partnerId: d.partnerId,
    secret: d.secret,
    eventId,
    timestamp: d.timestamp ?? NOW_MS,
    body,
  });
  return { headers, body };
}
const demo = (change: Partial<Delivery> = {}) =>
  deliver({ partnerId: V2_PARTNER.partnerId, secret: V2_PARTNER.secret, body: SMALL_BODY, ...change });
const rotating = (secret: string) =>
  deliver({
    partnerId: ROTATING_PARTNER.partnerId,
    secret,
    body: SMALL_BODY.replace('demo-partner', ROTATING_PARTNER.partnerId),
  });
const setHeader = (
  sent: { headers: Headers; body: Buffer },
  name: string,
  value: string | string[] | undefined,
) => {
  const headers = { ...sent.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...sent, headers };
};

interface Verifier {
  partnerId: string;
  secrets: string[];
  nowMs: number;
  toleranceMs: number;
}
const verifier = (change: Partial<Verifier> = {}): Verifier => ({
  partnerId: V2_PARTNER.partnerId,
  secrets: [V2_PARTNER.secret],
  nowMs: NOW_MS,
  toleranceMs: 300_000,
  ...change,
});
const rotatingVerifier = verifier({
  partnerId: ROTATING_PARTNER.partnerId,
  secrets: [ROTATING_PARTNER.secret, ROTATING_PARTNER.previousSecret],
});

const valid = demo();
const CASES: [string, string, { headers: Headers; body: Buffer }, Verifier, true | WebhookRejection][] = [
  ['valid', 'The docs/partners/signing.md example, as the dispatcher signs it.', valid, verifier(), true],
  [
    'valid-captured-settled',
    'A real settled event body, as the dispatcher signs it.',
    demo({ body: capturedSettled() }),
    verifier(),
    true,
  ],
  [
    'header-names-lower-case',
    'Header names compare case-insensitively.',
    {
      ...valid,
      headers: Object.fromEntries(Object.entries(valid.headers).map(([n, v]) => [n.toLowerCase(), v])),
    },
    verifier(),
    true,
  ],
  [
    'timestamp-at-tolerance-edge',
    'Verified exactly five minutes after X-Timestamp.',
    valid,
    verifier({ nowMs: NOW_MS + 300_000 }),
    true,
  ],
  [
    'timestamp-stale',
    'Verified one millisecond past the five-minute tolerance.',
    valid,
    verifier({ nowMs: NOW_MS + 300_001 }),
    'timestamp_expired',
  ],
  [
    'timestamp-invalid',
    'X-Timestamp that is not decimal epoch milliseconds.',
    setHeader(valid, 'X-Timestamp', '2026-01-01T00:00:00Z'),
    verifier(),
    'timestamp_invalid',
  ],
  [
    'body-re-serialized',
    'The receiver parsed the JSON and serialized it again before verifying: not the bytes that were signed.',
    { ...valid, body: Buffer.from(JSON.stringify(JSON.parse(SMALL_BODY), null, 2)) },
    verifier(),
    'signature_invalid',
  ],
  [
    'body-changed-by-one-byte',
    'One byte of the body differs.',
    { ...valid, body: Buffer.from(SMALL_BODY.replace('at_01', 'at_02')) },
    verifier(),
    'signature_invalid',
  ],
  [
    'wrong-secret',
    'Verified with a secret that is not the partner’s.',
    valid,
    verifier({ secrets: ['not-the-partner-secret'] }),
    'signature_invalid',
  ],
  [
    'signature-upper-case-hex',
    'The right digest in upper-case hex: X-Signature is lower-case hex.',
    setHeader(valid, 'X-Signature', String(valid.headers['X-Signature']).toUpperCase()),
    verifier(),
    'signature_invalid',
  ],
  [
    'signature-missing',
    'No X-Signature header.',
    setHeader(valid, 'X-Signature', undefined),
    verifier(),
    'header_missing',
  ],
  [
    'event-id-missing',
    'No X-Service-Event-Id header.',
    setHeader(valid, 'X-Service-Event-Id', undefined),
    verifier(),
    'header_missing',
  ],
  [
    'signature-duplicated',
    'X-Signature twice: which one was signed is unknowable.',
    setHeader(valid, 'X-Signature', [
      String(valid.headers['X-Signature']),
      String(valid.headers['X-Signature']),
    ]),
    verifier(),
    'header_duplicated',
  ],
  [
    'partner-mismatch',
    'Addressed to another partner than the receiver’s.',
    valid,
    verifier({ partnerId: 'legacy-partner' }),
    'partner_mismatch',
  ],
  [
    'event-id-mismatch',
    'X-Service-Event-Id differs from the body’s eventId.',
    demo({ eventId: 'ev_02' }),
    verifier(),
    'event_id_mismatch',
  ],
  [
    'rotation-signed-with-new',
    'During a rotation the receiver accepts both secrets; signed with the new one.',
    rotating(ROTATING_PARTNER.secret),
    rotatingVerifier,
    true,
  ],
  [
    'rotation-signed-with-previous',
    'During a rotation, signed with the secret being retired (a delivery made before the switch).',
    rotating(ROTATING_PARTNER.previousSecret),
    rotatingVerifier,
    true,
  ],
  [
    'rotation-signed-with-neither',
    'During a rotation, signed with a third secret.',
    rotating('a-third-secret-nobody-has'),
    rotatingVerifier,
    'signature_invalid',
  ],
];

/** webhooks.json: deliveries as the dispatcher makes them, a receiver's settings, and the verdict. */
export function webhookVectors(): object {
  return {
    cases: CASES.map(([name, description, sent, options, expected]) => {
      const verdict = verifyWebhook(sent.body, sent.headers, {
        partnerId: options.partnerId,
        secret: options.secrets,
        nowMs: options.nowMs,
        toleranceMs: options.toleranceMs,
      });
      const got = verdict.ok ? true : verdict.reason;
      if (got !== expected) throw new Error(`webhook case ${name}: verifyWebhook answers ${String(got)}`);
      return {
        name,
        description,
        headers: sent.headers,
        body: bytesField(sent.body),
        verifier: options,
        expected: verdict.ok
          ? { ok: true, eventId: verdict.event.eventId }
          : { ok: false, reason: verdict.reason },
      };
    }),
  };
}
