import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWalletAuthorization, ChainRegistry, executionCommitment } from '@svc/chains';
import { type ChainAction, type SubmittedRequest } from '@svc/contract';
import { type AttemptPreparedData, attemptStreamId } from '@svc/domain';
import { SqliteEventStore } from '@svc/event-store';
import { type FeatureReply } from '@svc/messaging';
import {
  ANVIL_ACCOUNTS,
  type AnvilInstance,
  type CountingRpcProxy,
  startAnvil,
  startCountingRpcProxy,
} from '@svc/testing';
import { keccak256, toHex, type TypedData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { AccountKindCache } from './account-kind-cache';
import { SubmitEvidenceService } from './submit-evidence.service';

const T0 = 1_700_000_000_000;
const PARTNER = 'partner-1';
const user = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const hash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const evidence = (...txHashes: string[]) => [{ chainId: 1, bundleId: null, txHashes, quoteResults: [] }];

const chainActions: ChainAction[] = [
  {
    chainId: 1,
    provider: 'relay',
    submitMethod: 'sendTransaction',
    atomicRequired: false,
    calls: null,
    transactions: [
      {
        chainId: 1,
        to: '0x00000000000000000000000000000000000f0f0f',
        data: '0x',
        value: '1',
        callId: 'chain:1:call:0',
        callIndex: 0,
        quoteIndex: 0,
      },
    ],
    transactionCount: 1,
    quoteCount: 1,
    quotePlans: [],
    perLegPreview: [],
  },
];

/** A prepared attempt of `user` on chain 1, its authorization valid until `authorizationExpiresAt` (Unix s). */
function preparedAttempt(
  attemptId: string,
  authorizationExpiresAt = T0 / 1000 + 86_400,
): AttemptPreparedData {
  return {
    attemptId,
    intentSessionId: `is_${attemptId}`,
    partnerId: PARTNER,
    idempotencyKey: `prepare-${attemptId}`,
    wallet: user.address,
    recipient: user.address,
    preparedAt: T0,
    expiresAt: T0 + 30_000,
    evidenceDeadlineAt: T0 + 900_000,
    chainActions,
    walletAuthorization: buildWalletAuthorization({
      partnerId: PARTNER,
      intentSessionId: `is_${attemptId}`,
      attemptId,
      wallet: user.address,
      recipient: user.address,
      executionCommitment: executionCommitment(chainActions),
      nonce: keccak256(toHex(attemptId)),
      expiresAt: authorizationExpiresAt,
    }),
    legs: [],
    walletContext: null,
  };
}

const sign = ({ walletAuthorization: auth }: AttemptPreparedData) =>
  user.signTypedData({
    domain: auth.domain,
    types: auth.types as TypedData,
    primaryType: auth.primaryType,
    message: { ...auth.message },
  });

describe('SubmitEvidenceService on SQLite and anvil', () => {
  let anvil: AnvilInstance;
  let rpc: CountingRpcProxy;
  let chains: ChainRegistry;
  let dir: string;
  let store: SqliteEventStore;
  let service: SubmitEvidenceService;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    rpc = await startCountingRpcProxy(anvil.rpcUrl);
    chains = new ChainRegistry([{ chainId: 1, name: 'Ethereum', rpcUrl: rpc.url, nativeSymbol: 'ETH' }]);
  });
  afterAll(async () => {
    await chains?.close();
    await rpc?.close();
    await anvil?.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'submit-'));
    store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    service = new SubmitEvidenceService(store, chains, new AccountKindCache(chains));
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function prepare(prepared: AttemptPreparedData): Promise<AttemptPreparedData> {
    await store.append(
      attemptStreamId(prepared.attemptId),
      [{ id: randomUUID(), type: 'AttemptPrepared', data: { ...prepared } }],
      { expectedRevision: 'no_stream' },
    );
    return prepared;
  }

  const submit = (
    attemptId: string,
    body: Partial<SubmittedRequest>,
    key: string,
    receivedAt = T0 + 10_000,
  ): Promise<FeatureReply> =>
    service.submit({
      partnerId: PARTNER,
      attemptId,
      idempotencyKey: key,
      requestId: randomUUID(),
      replayOf: null,
      body: {
        chainResults: evidence(hash(1)),
        walletAuthorization: null,
        submittedAt: null,
        ...body,
      },
      now: receivedAt,
    });

  const recorded = async (attemptId: string) =>
    (await store.readStream(attemptStreamId(attemptId))).map((e) => e.type);
  const codeOf = (reply: FeatureReply) => (reply.ok ? 'ok' : reply.code);

  it('reads the wallet’s account kind once: a second report for the same wallet makes no RPC call', async () => {
    const first = await prepare(preparedAttempt('at_cache_1'));
    const second = await prepare(preparedAttempt('at_cache_2'));
    const third = await prepare(preparedAttempt('at_cache_3'));
    const before = rpc.methods.length;
    expect(
      codeOf(await submit(first.attemptId, { walletAuthorization: { signature: await sign(first) } }, 'k1')),
    ).toBe('ok');
    expect(rpc.methods.slice(before)).toEqual(['eth_getCode']);

    const afterFirst = rpc.methods.length;
    const reply = await submit(
      second.attemptId,
      { walletAuthorization: { signature: await sign(second) } },
      'k2',
      T0 + 60_000,
    );
    expect(codeOf(reply)).toBe('ok');
    expect(await recorded(second.attemptId)).toContain('AuthorizationSigned');
    expect(rpc.methods.slice(afterFirst)).toEqual([]);

    // An EOA answer is trusted for 5 minutes, then read again.
    const afterSecond = rpc.methods.length;
    const later = await submit(
      third.attemptId,
      { walletAuthorization: { signature: await sign(third) } },
      'k3',
      T0 + 10_000 + 5 * 60_000,
    );
    expect(codeOf(later)).toBe('ok');
    expect(rpc.methods.slice(afterSecond)).toEqual(['eth_getCode']);
  });

  it('refuses a signature at or after the authorization’s message.expiresAt, recording nothing; evidence alone still records', async () => {
    const expiresAt = (T0 + 10_000) / 1000;
    const attempt = await prepare(preparedAttempt('at_expired', expiresAt));
    const signature = await sign(attempt);
    const late = await submit(
      attempt.attemptId,
      { walletAuthorization: { signature } },
      'k1',
      expiresAt * 1000,
    );
    expect(late).toEqual(expect.objectContaining({ ok: false, code: 'wallet_authorization_expired' }));
    expect(await recorded(attempt.attemptId)).toEqual(['AttemptPrepared']);

    expect(codeOf(await submit(attempt.attemptId, {}, 'k2', expiresAt * 1000))).toBe('ok');
    expect(await recorded(attempt.attemptId)).toEqual([
      'AttemptPrepared',
      'EvidenceReported',
      'AttemptWalletSubmitted',
    ]);

    const fresh = await prepare(preparedAttempt('at_in_time', expiresAt));
    const inTime = await submit(
      fresh.attemptId,
      { walletAuthorization: { signature: await sign(fresh) } },
      'k3',
      expiresAt * 1000 - 1,
    );
    expect(codeOf(inTime)).toBe('ok');
  });

  it('a key used again with new evidence (once the gateway forgot it) records that evidence', async () => {
    const attempt = await prepare(preparedAttempt('at_reuse'));
    await submit(attempt.attemptId, {}, 'reused-key');
    const again = await submit(
      attempt.attemptId,
      { chainResults: evidence(hash(2)) },
      'reused-key',
      T0 + 25 * 3_600_000,
    );
    expect(codeOf(again)).toBe('ok');
    const events = await store.readStream(attemptStreamId(attempt.attemptId));
    const hashes = events
      .filter((e) => e.type === 'EvidenceReported')
      .flatMap((e) => (e.data as { chainResults: { txHashes: string[] }[] }).chainResults)
      .flatMap((r) => r.txHashes);
    expect(hashes).toEqual([hash(1), hash(2)]);
    // The same request again is still a replay that adds nothing.
    await submit(attempt.attemptId, {}, 'reused-key');
    expect(await store.readStream(attemptStreamId(attempt.attemptId))).toHaveLength(events.length);
  });
});
