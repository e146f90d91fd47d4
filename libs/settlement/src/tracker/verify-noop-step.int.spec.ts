import { ChainRegistry } from '@svc/chains';
import {
  type AttemptPreparedData,
  attemptStreamId,
  DEFAULT_TRACKING_POLICY,
  flattenSlices,
  initialTrackingState,
} from '@svc/domain';
import { MemoryEventStore } from '@svc/event-store';
import {
  ANVIL_ACCOUNTS,
  type AnvilInstance,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { loadAttempt } from '../attempt-store/attempt-stream';
import { type TrackerDeps } from './tracker-deps';
import { verifyNoopStep } from './verify-noop-step';

/**
 * A no-op leg whose recipient is the wallet (security review H2 residue 3): nothing moves, so the leg is verified by
 * the recipient's balance, capped at the leg's amount. On anvil: two open attempts of the same wallet each read the
 * same balance; both settle, and both say `estimated`, since nothing in the balance is either attempt's own.
 */
const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const wallet = privateKeyToAccount(ANVIL_ACCOUNTS[1].privateKey);

function selfNoop(attemptId: string, token: Address): AttemptPreparedData {
  return {
    attemptId,
    intentSessionId: `is-${attemptId}`,
    partnerId: 'p',
    idempotencyKey: null,
    wallet: wallet.address,
    recipient: wallet.address,
    preparedAt: 1_000,
    expiresAt: 31_000,
    evidenceDeadlineAt: 901_000,
    chainActions: [],
    walletAuthorization: {} as AttemptPreparedData['walletAuthorization'],
    legs: [
      {
        legIndex: 0,
        targetId: 'usdc-base',
        provider: 'noop',
        target: { chainId, address: token, symbol: 'USDC', decimals: 6 },
        slices: [
          {
            sliceId: 's-0',
            sourceIndex: 0,
            sourceChainId: chainId,
            noop: true,
            provider: 'noop',
            providerRequestId: null,
            trackingContext: null,
            expectedOutputRaw: '5000000',
            minimumOutputRaw: '5000000',
          },
        ],
      },
    ],
    walletContext: null,
  };
}

describe('a no-op leg to the wallet itself, verified by its balance', () => {
  let anvil: AnvilInstance;
  let chains: ChainRegistry;
  let token: Address;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    const client = createAnvilClient(anvil);
    chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' }]);
    token = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    const mint = await client.writeContract({
      account: deployer,
      address: token,
      abi: TestTokenArtifact.abi,
      functionName: 'mint',
      args: [wallet.address, 5_000_000n],
    });
    await client.waitForTransactionReceipt({ hash: mint });
  }, 60_000);
  afterAll(async () => {
    await chains?.close();
    await anvil?.stop();
  });

  it('settles at most the leg amount, labelled estimated: two attempts of the wallet read the same balance', async () => {
    const store = new MemoryEventStore();
    const deps: TrackerDeps = {
      store,
      chains,
      adapters: {},
      policy: DEFAULT_TRACKING_POLICY,
      providerTimeoutMs: 5_000,
      receiptLogs: new Map(),
    };
    for (const attemptId of ['a-one', 'a-two']) {
      const data = selfNoop(attemptId, token);
      await store.append(
        attemptStreamId(attemptId),
        [{ id: crypto.randomUUID(), type: 'AttemptPrepared', data: { ...data } }],
        { expectedRevision: 'no_stream' },
      );
      const { record } = (await loadAttempt(store, attemptId, null))!;
      await verifyNoopStep(deps, record, initialTrackingState, flattenSlices(data)[0], {
        chainId,
        txHash: null,
        now: 2_000,
      });
    }
    for (const attemptId of ['a-one', 'a-two']) {
      const settled = (await store.readStream(attemptStreamId(attemptId))).find(
        (e) => e.type === 'LegSettled',
      );
      expect(settled?.data).toMatchObject({
        sliceId: 's-0',
        settledAmount: '5000000',
        amountBasis: 'estimated',
      });
    }
  });
});
