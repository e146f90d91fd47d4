import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { type PrepareResponse } from '@svc/contract';
import { type AttemptPreparedData, type IntentQuotedData } from '@svc/domain';
import { eventIdFrom, type EventStore, SqliteEventStore } from '@svc/event-store';
import { type FeatureReply } from '@svc/messaging';
import { type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { ANVIL_ACCOUNTS, withAppendBarrier } from '@svc/testing';
import { zeroAddress } from 'viem';
import { nativeDeposit, quotedLeg, quotedSlice } from '../chain-actions/chain-actions.fixture';
import { DEFAULT_EXECUTION_OPTIONS } from '../execution.options';
import { type PrepareAttempt } from './prepare-attempt.command';
import { PrepareAttemptService } from './prepare-attempt.service';

const T0 = 1_700_000_000_000;
const PARTNER = 'partner-1';
const WALLET = ANVIL_ACCOUNTS[0].address;
const FORWARDER = '0x00000000000000000000000000000000000f0f0f';
const ONE_ETH = 10n ** 18n;

/** A ready session: 1 ETH on chain 1 to ETH on Base, one native deposit (no approval, so no chain read). */
function readySession(intentSessionId: string): IntentQuotedData {
  const eth = { chainId: 1, address: zeroAddress, decimals: 18 };
  return {
    intentSessionId,
    partnerId: PARTNER,
    idempotencyKey: `quote-${intentSessionId}`,
    quotedAt: T0,
    expiresAt: T0 + 60_000,
    request: {
      walletAddress: WALLET,
      recipient: WALLET,
      sources: [{ ...eth, amount: ONE_ETH.toString(), symbol: 'ETH' }],
      target: {
        id: 't0',
        chainId: 8453,
        address: zeroAddress,
        allocationPercent: 100,
        targetToken: { address: zeroAddress, decimals: 18, symbol: 'ETH' },
      },
      slippageBps: 50,
      allowPartial: false,
    },
    // Prepare reads only the status of the response it answered.
    response: { quoteStatus: 'ready' } as IntentQuotedData['response'],
    execution: [
      quotedLeg('t0', 'mayan', [
        quotedSlice({
          sliceId: 's0',
          sourceIndex: 0,
          source: eth,
          amount: ONE_ETH,
          provider: 'mayan',
          calls: [nativeDeposit(1, FORWARDER, ONE_ETH)],
          expectedOutputRaw: ONE_ETH - 10n ** 15n,
        }),
      ]),
    ],
    fees: { serviceFeeBps: 0, markupBps: 0, recipient: null, markupOwed: [] },
  };
}

const prepareRequest = (intentSessionId: string, key: string): PrepareAttempt => ({
  partnerId: PARTNER,
  intentSessionId,
  idempotencyKey: key,
  body: {},
  now: T0 + 1_000,
  replayOf: null,
});

const bodyOf = (reply: FeatureReply) => {
  if (!reply.ok) throw new Error(`expected a prepared attempt, got ${reply.code}: ${reply.message}`);
  return reply.body as Omit<PrepareResponse, 'apiVersion'>;
};

describe('PrepareAttemptService on SQLite', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  // One chain entry is enough: a native deposit needs no allowance read, so nothing is sent to this URL.
  const chains = new ChainRegistry([
    { chainId: 1, name: 'Ethereum', rpcUrl: 'http://127.0.0.1:9', nativeSymbol: 'ETH' },
  ]);
  // No quote here is stale, so no provider is asked again.
  const noProviders = {} as Record<RoutableProvider, ProviderAdapter>;
  const service = (store: EventStore) =>
    new PrepareAttemptService(store, chains, noProviders, DEFAULT_EXECUTION_OPTIONS);

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'prepare-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    for (const id of ['is_a', 'is_b']) {
      await sqlite.append(
        `intent-${id}`,
        [
          {
            id: eventIdFrom(`intent-${id}`, 'IntentQuoted'),
            type: 'IntentQuoted',
            data: { ...readySession(id) },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    }
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const storedAttempt = async (attemptId: string) => {
    const events = await sqlite.readStream(`attempt-${attemptId}`);
    expect(events.map((e) => e.type)).toEqual(['AttemptPrepared']);
    return events[0].data as unknown as AttemptPreparedData;
  };

  it('two overlapping runs of one prepare (same key) both answer the stored attempt, nonce and calls', async () => {
    // Both runs read the session and build their attempt (each with its own random nonce) before either appends.
    const racing = service(withAppendBarrier(sqlite, 'intent-', 2));
    const replies = await Promise.all([
      racing.prepare(prepareRequest('is_a', 'key-1')),
      racing.prepare(prepareRequest('is_a', 'key-1')),
    ]);
    const [first, second] = replies.map(bodyOf);
    const stored = await storedAttempt(first.attemptId);
    for (const body of [first, second]) {
      expect(body.attemptId).toBe(stored.attemptId);
      expect(body.walletAuthorization?.message.nonce).toBe(stored.walletAuthorization.message.nonce);
      expect(body.walletAuthorization).toEqual(stored.walletAuthorization);
      expect(body.chainActions).toEqual(stored.chainActions);
    }
    expect(second).toEqual(first);
  });

  it('the same key on another session prepares that session, never handing back the first attempt', async () => {
    const prepare = service(sqlite);
    const onA = bodyOf(await prepare.prepare(prepareRequest('is_a', 'reused-key')));
    const onB = bodyOf(await prepare.prepare(prepareRequest('is_b', 'reused-key')));
    expect(onB.intentSessionId).toBe('is_b');
    expect(onB.attemptId).not.toBe(onA.attemptId);
    expect(onB.walletAuthorization?.message.intentSessionId).toBe('is_b');
    expect((await storedAttempt(onB.attemptId)).intentSessionId).toBe('is_b');
    // The same request again still finds its own attempt.
    expect(bodyOf(await prepare.prepare(prepareRequest('is_a', 'reused-key')))).toEqual(onA);
  });
});
