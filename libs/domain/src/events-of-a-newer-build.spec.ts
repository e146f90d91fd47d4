import { type Decider } from '@svc/contract';
import { idempotencyDecider } from './idempotency/idempotency.decider';
import { accepted, completed } from './idempotency/idempotency.fixture';
import { intentSessionDecider } from './intent-session/intent-session.decider';
import { type IntentQuotedData } from './intent-session/intent-session.events';
import { nonceBucketReader } from './nonce/nonce-bucket';
import { nonceDecider } from './nonce/nonce.decider';
import { evolveTracking, initialTrackingState, type TrackingEvent } from './tracking/tracking.state';
import { transactionClaimDecider } from './tracking/transaction-claim';
import { endpointBreakerDecider } from './webhook-delivery/endpoint-breaker.decider';

/** An event a newer build may append: a type this build does not know, with data that looks like a known one's. */
const futureThing = {
  type: 'FutureThing',
  data: { owner: 'someone', tupleHash: 'h', attemptId: 'at_9', failures: 7, retryAt: 1 },
};

type AnyDecider = Decider<unknown, unknown, { type: string; data: unknown }>;
const fold = (decider: AnyDecider, events: { type: string; data: unknown }[]) =>
  events.reduce((s, e) => decider.evolve(s, e), decider.initialState);

const quote = { intentSessionId: 'is_1', partnerId: 'p' } as unknown as IntentQuotedData;

/** Every other stream's decider, with a story of its own events. */
const cases: [string, AnyDecider, { type: string; data: unknown }[]][] = [
  [
    'the intent session',
    intentSessionDecider,
    [
      { type: 'IntentQuoted', data: quote },
      { type: 'IntentPrepared', data: { attemptId: 'at_1', idempotencyKey: null, preparedAt: 2 } },
    ],
  ],
  ['an Idempotency-Key', idempotencyDecider, [accepted(), completed()]],
  ['a nonce', nonceDecider, [{ type: 'NonceUsed', data: { tupleHash: 'tuple-1', usedAt: 1 } }]],
  [
    "a nonce bucket's event",
    nonceBucketReader,
    [{ type: 'NonceUsed', data: { nonce: 'n', tupleHash: 'tuple-1', usedAt: 1 } }],
  ],
  [
    'a transaction claim',
    transactionClaimDecider,
    [{ type: 'TransactionClaimed', data: { chainId: 1, txHash: '0xab', owner: 'source:at_1', at: 1 } }],
  ],
  [
    "a partner endpoint's breaker",
    endpointBreakerDecider({ failureThreshold: 2, coolDownMs: 10 }),
    [
      { type: 'EndpointFailed', data: { at: 1, failures: 1 } },
      { type: 'EndpointOpened', data: { at: 1, retryAt: 11 } },
    ],
  ],
];

describe('every fold over an event type it does not know (a newer build wrote it)', () => {
  it.each(cases)(
    '%s: leaves the state as it was, before its first event and after each',
    (_, decider, story) => {
      expect(fold(decider, [futureThing])).toEqual(decider.initialState);
      expect(fold(decider, [futureThing, ...story.flatMap((e) => [e, futureThing])])).toEqual(
        fold(decider, story),
      );
    },
  );

  it.each(cases.filter(([name]) => !name.includes('breaker')))(
    '%s: tells the command seam which stored events it folds (its own types, with data an object)',
    (_, decider, story) => {
      expect(decider.knownEventTypes?.has(futureThing.type)).toBe(false);
      expect(story.every((e) => decider.isEvent?.(e))).toBe(true);
      expect(story.some((e) => decider.isEvent?.({ type: e.type, data: null }))).toBe(false);
    },
  );

  it('the tracking workflow: leaves its pacing as it was', () => {
    const story: TrackingEvent[] = [
      {
        type: 'LegScheduled',
        sliceId: 's-1',
        schedule: { nextPollAt: 5, delayMs: 5, lastPollAt: null, failureSince: null },
      },
      { type: 'DepositSearched', found: true },
    ];
    const future = futureThing as unknown as TrackingEvent;
    expect(evolveTracking(initialTrackingState, future)).toEqual(initialTrackingState);
    expect(
      [future, ...story.flatMap((e) => [e, future])].reduce(evolveTracking, initialTrackingState),
    ).toEqual(story.reduce(evolveTracking, initialTrackingState));
  });
});
