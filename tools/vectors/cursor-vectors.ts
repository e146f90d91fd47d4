import {
  decodeRecoverContinuation,
  decodeWebhookCursor,
  encodeRecoverContinuation,
  encodeSearchCursor,
  encodeWebhookCursor,
  type ErrorCode,
  httpStatusOf,
} from '@svc/contract';
// The decoder is the search feature's business and not exported; the vectors need it to state what it accepts.
// eslint-disable-next-line @nx/enforce-module-boundaries
import { decodeSearchCursor } from '../../libs/contract/src/lookups/search-cursor';
import { ATTEMPT_ID, NOW_MS } from './vector-fixtures';

type Filters = Parameters<typeof encodeSearchCursor>[0];
const FILTERS: Filters = {
  walletAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  recipient: null,
  statuses: ['settled', 'failed'],
  createdFrom: NOW_MS - 86_400_000,
  createdTo: null,
};
const OTHER_FILTERS: Filters = { ...FILTERS, statuses: ['settled'] };
const LAST = { createdAt: NOW_MS, attemptId: ATTEMPT_ID };
const RANGE = { from: NOW_MS - 3_600_000, to: NOW_MS };
const CONTINUATION = { after: { occurredAt: NOW_MS - 60_000, position: '1042:1042' }, asOf: '2048:2048' };

/** Edits a cursor the way a careless client would. */
const tamper = {
  padded: (c: string) => `${c}==`,
  lastCharacterChanged: (c: string) => c.slice(0, -1) + (c.endsWith('A') ? 'B' : 'A'),
  urlEncoded: (c: string) => encodeURIComponent(`${c}+/`),
  base64Standard: (c: string) => c.replace(/-/g, '+').replace(/_/g, '/'),
};
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');

interface Refusal {
  why: string;
  cursor: string;
}
const refusals = (code: ErrorCode, issued: string, extra: Refusal[], decode: (c: string) => unknown) =>
  [
    { why: 'Empty.', cursor: '' },
    { why: 'Base64 padding added.', cursor: tamper.padded(issued) },
    { why: 'One character changed.', cursor: tamper.lastCharacterChanged(issued) },
    { why: 'Characters outside base64url, percent-encoded.', cursor: tamper.urlEncoded(issued) },
    { why: 'A JSON array, not an object.', cursor: b64([1, 2]) },
    { why: 'Longer than 1024 characters.', cursor: 'A'.repeat(1025) },
    ...extra,
  ]
    // An edit that changes nothing in this cursor (no `-` or `_` to replace) is no refusal case.
    .filter(({ cursor }, i, all) => cursor !== issued && all.findIndex((r) => r.cursor === cursor) === i)
    .map((r) => {
      if (decode(r.cursor) !== null) throw new Error(`cursor refusal "${r.why}" was accepted`);
      return { ...r, decoded: null, status: httpStatusOf(code), code };
    });

/** cursors.json: each opaque cursor codec of libs/contract, what it issues and decodes, and what it refuses. */
export function cursorVectors(): object {
  const search = encodeSearchCursor(FILTERS, LAST);
  const webhook = encodeWebhookCursor('demo-partner', 'ev_01');
  const webhookStart = encodeWebhookCursor('demo-partner', null);
  const recover = encodeRecoverContinuation(RANGE.from, RANGE.to, CONTINUATION);
  return {
    alphabet: 'A-Za-z0-9_- (base64url, no padding)',
    searchAttempts: {
      roundTrips: [
        { filters: FILTERS, last: LAST, cursor: search, decoded: decodeSearchCursor(FILTERS, search) },
      ],
      refusals: refusals(
        'invalid_cursor',
        search,
        [
          { why: 'Issued for other filters.', cursor: encodeSearchCursor(OTHER_FILTERS, LAST) },
          { why: 'Standard base64 instead of base64url.', cursor: tamper.base64Standard(search) },
        ],
        (c) => decodeSearchCursor(FILTERS, c),
      ).map((r) => ({ filters: FILTERS, ...r })),
    },
    webhookEvents: {
      roundTrips: [
        {
          partnerId: 'demo-partner',
          lastEventId: 'ev_01',
          cursor: webhook,
          decoded: decodeWebhookCursor('demo-partner', webhook),
        },
        {
          partnerId: 'demo-partner',
          lastEventId: null,
          cursor: webhookStart,
          decoded: decodeWebhookCursor('demo-partner', webhookStart),
        },
      ],
      refusals: refusals(
        'invalid_webhook_cursor',
        webhook,
        [{ why: 'Issued to another partner.', cursor: encodeWebhookCursor('legacy-partner', 'ev_01') }],
        (c) => decodeWebhookCursor('demo-partner', c),
      ).map((r) => ({ partnerId: 'demo-partner', ...r })),
    },
    webhookRecover: {
      roundTrips: [
        {
          ...RANGE,
          continuation: CONTINUATION,
          cursor: recover,
          decoded: decodeRecoverContinuation(RANGE.from, RANGE.to, recover),
        },
      ],
      refusals: refusals(
        'invalid_recover_continuation',
        recover,
        [
          {
            why: 'Issued for another range.',
            cursor: encodeRecoverContinuation(RANGE.from - 1, RANGE.to, CONTINUATION),
          },
        ],
        (c) => decodeRecoverContinuation(RANGE.from, RANGE.to, c),
      ).map((r) => ({ ...RANGE, ...r })),
    },
  };
}
