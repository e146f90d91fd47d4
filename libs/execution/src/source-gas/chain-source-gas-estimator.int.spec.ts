import { createServer, type Server, type Socket } from 'node:net';
import { type AddressInfo } from 'node:net';
import { ChainRegistry } from '@svc/chains';
import { type QuoteRequest } from '@svc/contract';
import { type QuotedLegExecution } from '@svc/domain';
import { startAnvil, type AnvilInstance } from '@svc/testing';
import { ChainSourceGasEstimator } from './chain-source-gas-estimator';

const NATIVE = '0x0000000000000000000000000000000000000000';
const WALLET = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * The estimator against real nodes: anvil for a chain that answers, a TCP black hole for one that never does. Native
 * no-op slices delivered to another recipient are plain transfers, so a bare anvil can run them.
 */
describe('ChainSourceGasEstimator', () => {
  let anvil: AnvilInstance;
  let hole: Server;
  const held = new Set<Socket>();
  let chains: ChainRegistry;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    hole = createServer((socket) => {
      held.add(socket);
      socket.on('error', () => undefined);
      socket.resume();
    });
    await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
    chains = new ChainRegistry(
      [
        { chainId: 1, name: 'Ethereum', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' },
        {
          chainId: 10,
          name: 'OP Mainnet',
          rpcUrl: `http://127.0.0.1:${(hole.address() as AddressInfo).port}`,
          nativeSymbol: 'ETH',
        },
      ],
      { retryCount: 0 },
    );
  });
  afterAll(async () => {
    held.forEach((s) => s.destroy());
    await new Promise<void>((resolve) => hole?.close(() => resolve()));
    await chains?.close();
    await anvil?.stop();
  });

  const sources = [
    { chainId: 1, address: NATIVE, amount: '1000000000000000000', decimals: 18 },
    { chainId: 10, address: NATIVE, amount: '2000000000000000000', decimals: 18 },
    { chainId: 137, address: NATIVE, amount: '3000000000000000000', decimals: 18 },
  ];
  const request = {
    walletAddress: WALLET,
    recipient: RECIPIENT,
    sources,
    slippageBps: 50,
    allowPartial: false,
    target: {
      id: 't0',
      chainId: 1,
      address: NATIVE,
      allocationPercent: 100,
      targetToken: { address: NATIVE, decimals: 18 },
    },
  } as QuoteRequest;
  const legs: QuotedLegExecution[] = [
    {
      targetId: 't0',
      provider: 'relay',
      slices: [],
      noopSlices: sources.map((s, i) => ({
        sliceId: `t0:${i}`,
        sourceIndex: i,
        chainId: s.chainId,
        token: NATIVE,
        rawAmount: s.amount,
      })),
    },
  ];

  it('estimates the chain that answers, and leaves only the silent chain and the unconfigured one unavailable, within the budget', async () => {
    const estimator = new ChainSourceGasEstimator(chains, { chainBudgetMs: 400 });
    const started = Date.now();
    const figures = await estimator.estimate({ request, legs });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(figures.map((f) => [f.inputTokenIndex, f.chainId, f.status, f.reason])).toEqual([
      [0, 1, 'estimated', null],
      [1, 10, 'unavailable', 'chain 10 did not answer within 400 ms'],
      [2, 137, 'unavailable', 'chain 137 is not configured'],
    ]);
    const [answered] = figures;
    // A plain native transfer, run by the node: 21 000 gas, no L1 data fee on chain 1.
    expect(answered.transactions).toEqual([
      { kind: 'transfer', to: RECIPIENT, gasUnits: '21000', gasMethod: 'simulated', l1DataFeeWei: '0' },
    ]);
    expect(answered.baseFeePerGas).toBeGreaterThan(0n);
    expect(answered.costNative).toBe(21_000n * (answered.baseFeePerGas + answered.priorityFeePerGas));
  });
});
