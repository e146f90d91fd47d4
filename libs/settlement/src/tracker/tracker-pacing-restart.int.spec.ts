import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { ChainRegistry } from '@svc/chains';
import { type AttemptPreparedData } from '@svc/domain';
import { SqliteEventStore } from '@svc/event-store';
import { readWorkerCheckpoint, type WorkSharing } from '@svc/leases';
import { type ProviderAdapter, type StatusResult } from '@svc/providers';
import { ManualClock } from '@svc/testing';
import { DEFAULT_SETTLEMENT_OPTIONS } from '../settlement.options';
import { SettlementTracker, TRACKER_LEASE_GROUP } from './settlement-tracker';

const T0 = Date.UTC(2026, 10, 28);
const sharing: WorkSharing = { instanceId: 'tracker-a', shardCount: 1, leaseTtlMs: 15_000 };
const GRACE_MS = 20_000;
Logger.overrideLogger(false);

/** A submitted attempt with one Relay leg, which Relay polls by request id before any source transaction. */
const attempt: AttemptPreparedData = {
  attemptId: 'paced',
  intentSessionId: 'is-paced',
  partnerId: 'p',
  idempotencyKey: null,
  wallet: '0x00000000000000000000000000000000000000aa',
  recipient: '0x00000000000000000000000000000000000000bb',
  preparedAt: T0,
  expiresAt: T0 + 30_000,
  evidenceDeadlineAt: T0 + 3_600_000,
  chainActions: [],
  walletAuthorization: {} as AttemptPreparedData['walletAuthorization'],
  legs: [
    {
      legIndex: 0,
      targetId: 'usdc-8453',
      provider: 'relay',
      target: {
        chainId: 8453,
        address: '0x00000000000000000000000000000000000000cc',
        symbol: 'USDC',
        decimals: 6,
      },
      slices: [
        {
          sliceId: 's-1',
          sourceIndex: 0,
          sourceChainId: 1,
          noop: false,
          provider: 'relay',
          providerRequestId: '0x01',
          trackingContext: {
            provider: 'relay',
            requestId: '0x01',
            originChainId: 1,
            destinationChainId: 8453,
          },
          expectedOutputRaw: '1000000',
          minimumOutputRaw: '990000',
        },
      ],
    },
  ],
  walletContext: null,
};

/**
 * Relay answering `failure` on every poll: the tracker backs off (nothing changes) and holds the failure for the
 * grace. The stand-in for Relay's HTTP API; what is under test is the tracker's pacing across a restart.
 */
function failingRelay(polls: number[], clock: ManualClock): ProviderAdapter {
  const failure: StatusResult = {
    ok: true,
    progress: { state: 'failed', providerStatus: 'failure', reason: 'SOLVER_CAPACITY_EXCEEDED' },
  };
  return {
    name: 'relay',
    tracking: { pollsBeforeSourceTx: true, minPollIntervalMs: 1000, failureGraceMs: GRACE_MS },
    explorerUrl: () => null,
    depositRefs: () => [],
    quote: () => Promise.reject(new Error('not quoted here')),
    status: () => {
      polls.push(clock.now());
      return Promise.resolve(failure);
    },
  };
}

describe('SettlementTracker: pacing survives a restart (issue 24 item 2)', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  const clock = new ManualClock(T0);
  const polls: number[] = [];
  const tracker = () =>
    new SettlementTracker(
      sqlite,
      new ChainRegistry([]),
      { relay: failingRelay(polls, clock) },
      clock,
      { ...DEFAULT_SETTLEMENT_OPTIONS, tickMs: 0, pollMinMs: 1000, pollMaxMs: 30_000 },
      sharing,
    );

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-pacing-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(clock.now()) });
  });
  afterAll(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const at = async (t: ReturnType<typeof tracker>, time: number) => {
    clock.set(time);
    await t.tick();
    await t.tick(); // the facts a run appended come back through the log
  };
  const lastLeg = async () =>
    (await sqlite.readStream('attempt-paced')).filter((e) => e.type.startsWith('Leg')).at(-1);

  it('a restarted tracker waits out the backoff it was in, and the failure grace it started, not anew', async () => {
    await sqlite.append(
      'attempt-paced',
      [
        { id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...attempt } },
        { id: crypto.randomUUID(), type: 'AttemptWalletSubmitted', data: { at: T0 } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const first = tracker();
    await first.onApplicationBootstrap();
    // Polled at T0, then backing off while Relay keeps saying failure: 1 s, 2 s, 4 s, 8 s.
    for (const s of [0, 1, 3, 7, 15]) await at(first, T0 + s * 1000);
    expect(polls).toEqual([0, 1, 3, 7, 15].map((s) => T0 + s * 1000));
    await first.onApplicationShutdown();
    const saved = await readWorkerCheckpoint(sqlite, TRACKER_LEASE_GROUP);
    expect(saved?.state).toMatchObject({
      pacing: { paced: { legs: { 's-1': { nextPollAt: T0 + 31_000, delayMs: 16_000, failureSince: T0 } } } },
    });

    // Restarted mid-backoff, 2 s after the last poll: the next poll is still 14 s away, and is not made now.
    const second = tracker();
    await second.onApplicationBootstrap();
    await at(second, T0 + 17_000);
    expect(polls).toHaveLength(5);
    // The failure has stood since T0: at T0 + 20 s it is final, whatever the restart (before: held 20 s again).
    await at(second, T0 + 31_000);
    expect(polls).toHaveLength(6);
    expect(await lastLeg()).toMatchObject({
      type: 'LegFailed',
      data: { sliceId: 's-1', errorCode: 'provider_failed', errorMessage: 'SOLVER_CAPACITY_EXCEEDED' },
    });
    await second.onApplicationShutdown();
  });
});
