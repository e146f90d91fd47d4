import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { type AddressInfo } from 'node:net';
import { ChainRegistry } from '@svc/chains';
import { type QuoteRequest } from '@svc/contract';
import { type QuotedLegExecution } from '@svc/domain';
import { startAnvil, type AnvilInstance } from '@svc/testing';
import { register } from 'prom-client';
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

  describe('a session (one quote): chains read for a provisional plan serve the final one with the same calls', () => {
    let proxy: Server;
    let proxied: ChainRegistry;
    const simulations: number[] = [];
    const blockReads: number[] = [];
    const readsOf = async (kind: string) =>
      (await register.getSingleMetricAsString('intent_source_gas_chain_reads_total'))
        .split('\n')
        .filter((line) => line.includes(`kind="${kind}"`))
        .map((line) => Number(line.split(' ').pop()))
        .reduce((a, b) => a + b, 0);

    beforeAll(async () => {
      // A pass-through to anvil that counts eth_simulateV1 calls (one per chain round trip).
      proxy = createHttpServer((req, res) => {
        void (async () => {
          const body = Buffer.concat((await req.toArray()) as Buffer[]);
          const calls = [JSON.parse(body.toString()) as { method: string } | { method: string }[]].flat();
          simulations.push(calls.filter((c) => c.method === 'eth_simulateV1').length);
          blockReads.push(calls.filter((c) => c.method === 'eth_getBlockByNumber').length);
          const answer = await fetch(anvil.rpcUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
          });
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
        })();
      });
      await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
      proxied = new ChainRegistry(
        [
          {
            chainId: 1,
            name: 'Ethereum',
            rpcUrl: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
            nativeSymbol: 'ETH',
          },
        ],
        { retryCount: 0 },
      );
    });
    afterAll(async () => {
      await proxied?.close();
      await new Promise<void>((resolve) => proxy?.close(() => resolve()));
    });

    const onChain1 = { ...request, sources: [sources[0]] };
    const legsFor = (amount: string): QuotedLegExecution[] => [
      {
        targetId: 't0',
        provider: 'relay',
        slices: [],
        noopSlices: [{ sliceId: 't0:0', sourceIndex: 0, chainId: 1, token: NATIVE, rawAmount: amount }],
      },
    ];
    const simulated = () => simulations.reduce((a, b) => a + b, 0);
    const figuresOf = (f: Awaited<ReturnType<ChainSourceGasEstimator['estimate']>>) =>
      f.map((x) => [x.inputTokenIndex, x.status, x.transactions, x.gasUnits]);

    it('reuses the speculated round trip when the final plan holds exactly its calls: the same figures, one simulation', async () => {
      const estimator = new ChainSourceGasEstimator(proxied);
      const fresh = await estimator.estimate({ request: onChain1, legs: legsFor('1000') });
      const [before, reusedBefore] = [simulated(), await readsOf('reused')];
      const session = estimator.session();
      session.speculate({ request: onChain1, legs: legsFor('1000') });
      const figures = await session.estimate({ request: onChain1, legs: legsFor('1000') });
      expect(figuresOf(figures)).toEqual(figuresOf(fresh));
      expect(simulated() - before).toBe(1);
      expect((await readsOf('reused')) - reusedBefore).toBe(1);
    });

    it('prices a reused round trip at the fee per gas of the final estimate, not of the early read', async () => {
      const estimator = new ChainSourceGasEstimator(proxied, { feeDataMaxAgeMs: 100 });
      const session = estimator.session();
      session.speculate({ request: onChain1, legs: legsFor('4242') });
      await new Promise((resolve) => setTimeout(resolve, 400)); // a slow provider; the fee data is now too old
      const [simulatedBefore, readsBefore] = [simulated(), blockReads.reduce((a, b) => a + b, 0)];
      await session.estimate({ request: onChain1, legs: legsFor('4242') });
      expect(simulated() - simulatedBefore).toBe(0); // the simulation reused
      expect(blockReads.reduce((a, b) => a + b, 0) - readsBefore).toBe(1); // the base fee read again
    });

    it('reads afresh when the final plan differs, and speculates at most twice a chain', async () => {
      const estimator = new ChainSourceGasEstimator(proxied);
      const fresh = await estimator.estimate({ request: onChain1, legs: legsFor('7777') });
      const before = simulated();
      const session = estimator.session();
      for (const amount of ['1', '2', '3']) session.speculate({ request: onChain1, legs: legsFor(amount) });
      const figures = await session.estimate({ request: onChain1, legs: legsFor('7777') });
      expect(figuresOf(figures)).toEqual(figuresOf(fresh));
      // Two speculations (the third refused), then the final plan's own round trip.
      expect(simulated() - before).toBe(3);
    });
  });
});
