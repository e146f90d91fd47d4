import { ChainRegistry } from '@svc/chains';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  doWalletPart,
  ManualClock,
  rawRequest,
  signedRequest,
  startSandboxProcess,
  type PreparedForWalletPart,
  type SandboxProcess,
} from '@svc/testing';
import {
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  defineChain,
  erc20Abi,
  type Hex,
  http,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const NATIVE = '0x0000000000000000000000000000000000000000';

interface SourceGas {
  inputTokenIndex: number;
  chainId: number;
  status: string;
  transactions: { kind: string; gasUnits: string; gasMethod: string; l1DataFeeWei: string }[];
  gasUnits: string;
  l1DataFeeWei: string;
  costNativeRaw: string;
  costUsd: number | null;
  uneconomic: boolean | null;
  excluded: boolean;
  nativePriceSource: string | null;
}

/**
 * Source gas in quotes (docs/source-economics.md), end to end on the sandbox with its fee market (base fees in band,
 * tips, the L1 data fee on 8453): the quote's estimate of each source against what executing the prepared actions
 * really costs the wallet, and dust left out on request.
 */
describe('source gas in quotes, on the sandbox', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      clock,
      chains,
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
  });
  beforeEach(() => clock.set(Date.now()));

  const user = (i: number) => sandbox.manifest.wallets.users[i];
  const token = (chainId: number, symbol: string) =>
    symbol === 'ETH' ? NATIVE : sandbox.token(chainId, symbol);
  const post = (path: string, body: unknown) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'POST',
      path,
      body,
      idempotencyKey: `k-${Math.random()}`,
      timestamp: clock.now(),
    });
  const source = (chainId: number, symbol: string, amount: string, usdValue: string) => ({
    chainId,
    address: token(chainId, symbol),
    amount,
    symbol,
    decimals: symbol === 'ETH' ? 18 : 6,
    usdValue,
  });
  const quote = async (userIndex: number, sources: unknown[], extra: Record<string, unknown> = {}) => {
    const res = await post('/api/external/intents/quote', {
      walletAddress: user(userIndex).address,
      sources,
      target: {
        chainId: 42161,
        address: token(42161, 'USDC'),
        targetToken: { address: token(42161, 'USDC'), symbol: 'USDC', decimals: 6 },
      },
      ...extra,
    });
    expect(res.status).toBe(200);
    return res.json;
  };
  const reader = (chainId: number) => {
    const entry = sandbox.manifest.chains.find((c) => c.chainId === chainId)!;
    return createPublicClient({
      chain: defineChain({
        id: chainId,
        name: entry.name,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [entry.rpcUrl] } },
      }),
      transport: http(entry.rpcUrl),
    });
  };
  /** The L1 data fee the sandbox charged a transaction on 8453 (charged a block or so after it is mined). */
  async function l1FeeCharged(hash: Hex): Promise<bigint> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await fetch(`${sandbox.manifest.url}/l1-fees/${hash}`);
      if (res.status === 200) return BigInt(((await res.json()) as { l1Fee: string }).l1Fee);
      if (Date.now() > deadline) throw new Error(`no L1 fee recorded for ${hash}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** intent_source_gas_chain_reads_total{kind} on the service's /metrics. */
  const chainReads = async (kind: string): Promise<number> => {
    const metrics = await rawRequest({ port: t.opsPort, method: 'GET', path: '/metrics' });
    const line = metrics.text
      .split('\n')
      .find((l) => l.startsWith(`intent_source_gas_chain_reads_total{kind="${kind}"}`));
    return line === undefined ? 0 : Number(line.split(' ').pop());
  };

  /**
   * Provider quote calls made so far (intent_provider_call_duration_seconds_count of every provider's quote and
   * Mayan's swap route; the status polls of attempts still tracked from the tests before are left out).
   */
  const providerCalls = async (): Promise<number> => {
    const metrics = await rawRequest({ port: t.opsPort, method: 'GET', path: '/metrics' });
    return metrics.text
      .split('\n')
      .filter((l) => l.startsWith('intent_provider_call_duration_seconds_count{'))
      .filter((l) => /operation="(quote|swap_route)"/.test(l))
      .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  };

  it('estimates each source within 10% of what the wallet pays executing the prepared actions (gas exact, L1 fee on 8453)', async () => {
    const startBlock = new Map<number, bigint>();
    for (const chainId of [1, 8453])
      startBlock.set(chainId, await reader(chainId).getBlockNumber({ cacheTime: 0 }));
    // Mayan answers last (a sandbox latency fault) and Across wins: the chains are read for Across's plan while Mayan
    // is awaited, and the final plan, the same, reuses those reads. (Across is the sandbox's slowest otherwise.)
    await sandbox.setFaults([{ provider: 'mayan', latencyMs: 1500, endpoints: 'quote' }]);
    const reusedBefore = await chainReads('reused');
    const q = await quote(1, [
      source(1, 'USDC', '250000000', '250'),
      source(1, 'USDT', '40000000', '40'),
      source(8453, 'USDC', '30000000', '30'),
      source(8453, 'ETH', '20000000000000000', '60'),
    ]);
    expect(q.quoteStatus).toBe('ready');
    await sandbox.setFaults([]);
    // Both chains' figures came from the round trips read while Mayan was still awaited: what follows checks those
    // figures against the receipts.
    expect((await chainReads('reused')) - reusedBefore).toBe(2);
    const gas = q.sourceGas.sources as SourceGas[];
    expect(gas.map((s) => [s.inputTokenIndex, s.chainId, s.status, s.excluded])).toEqual([
      [0, 1, 'estimated', false],
      [1, 1, 'estimated', false],
      [2, 8453, 'estimated', false],
      [3, 8453, 'estimated', false],
    ]);
    expect(gas.flatMap((s) => s.transactions.map((tx) => tx.gasMethod))).not.toContain('per_call_estimate');
    // ERC-20 sources approve, then deposit; the native one only deposits.
    expect(gas.map((s) => s.transactions.map((tx) => tx.kind))).toEqual([
      ['approve', 'deposit'],
      ['approve', 'deposit'],
      ['approve', 'deposit'],
      ['deposit'],
    ]);
    // The price of ETH came from the request's own ETH source.
    expect(gas.every((s) => s.nativePriceSource === 'request_source')).toBe(true);
    // 8453 charges an L1 data fee on every transaction; mainnet none.
    expect(gas.filter((s) => s.chainId === 8453).every((s) => BigInt(s.l1DataFeeWei) > 0n)).toBe(true);
    expect(gas.filter((s) => s.chainId === 1).every((s) => s.l1DataFeeWei === '0')).toBe(true);

    const prepared = await post(`/api/external/intents/${q.intentSessionId}/prepare`, {
      walletContext: { connectorName: 'Test', walletCapabilities: {} },
    });
    expect(prepared.status).toBe(200);
    // The quote counted the transactions prepare returns, chain by chain.
    const perChain = q.sourceGas.totals.perChain as { chainId: number; transactionCount: number }[];
    expect(perChain.map((c) => [c.chainId, c.transactionCount])).toEqual(
      prepared.json.chainActions.map((a: { chainId: number; transactionCount: number }) => [
        a.chainId,
        a.transactionCount,
      ]),
    );
    const done = await doWalletPart({
      prepared: prepared.json as PreparedForWalletPart,
      privateKey: user(1).privateKey as Hex,
      chains: sandbox.manifest.chains,
      pollingIntervalMs: 50,
    });

    // Per chain, what the wallet paid: Σ gasUsed × effectiveGasPrice, plus the L1 data fee charged on 8453.
    const lines: string[] = [];
    for (const { chainId, txHashes } of done.chainResults) {
      let gasUsed = 0n;
      let paid = 0n;
      let l1 = 0n;
      const ofChain = gas.filter((s) => s.chainId === chainId);
      const quotedBaseFee = BigInt((ofChain[0] as SourceGas & { baseFeePerGasWei: string }).baseFeePerGasWei);
      for (const hash of txHashes) {
        const receipt = await reader(chainId).getTransactionReceipt({ hash });
        gasUsed += receipt.gasUsed;
        paid += receipt.gasUsed * receipt.effectiveGasPrice;
        if (chainId === 8453) l1 += await l1FeeCharged(hash);
        // The fee per gas moved only as the chain's base fee may between the quote and this block: a walk step a
        // block (at most 1/32 up), or an interval block's EIP-1559 decay (at most 1/8 down).
        const block = await reader(chainId).getBlock({ blockNumber: receipt.blockNumber });
        const blocks = Number(receipt.blockNumber - startBlock.get(chainId)!);
        const ratio = Number(block.baseFeePerGas!) / Number(quotedBaseFee);
        expect(ratio).toBeLessThanOrEqual((33 / 32) ** blocks);
        expect(ratio).toBeGreaterThanOrEqual((7 / 8) ** blocks);
      }
      const estimatedGas = ofChain.reduce((n, s) => n + BigInt(s.gasUnits), 0n);
      const estimatedL1 = ofChain.reduce((n, s) => n + BigInt(s.l1DataFeeWei), 0n);
      const estimated = ofChain.reduce((n, s) => n + BigInt(s.costNativeRaw), 0n);
      const actual = paid + l1;
      const errorBps = Number(((estimated - actual) * 10_000n) / actual);
      lines.push(
        `chain ${chainId}: ${txHashes.length} txs, gas ${estimatedGas} estimated / ${gasUsed} used; ` +
          `L1 fee ${estimatedL1} / ${l1} wei; cost ${estimated} / ${actual} wei (${errorBps / 100}%)`,
      );
      // The simulation runs the very calls, in order, on the same state: the gas is the gas.
      expect(estimatedGas).toBe(gasUsed);
      // The cost then differs only by that movement of the fee (measured: within a few percent, at most 12%); the L1
      // fee estimate counts a full signature's bytes, the charge the signed ones.
      expect(Math.abs(errorBps)).toBeLessThanOrEqual(2_500);
      if (chainId === 8453) {
        expect(estimatedL1).toBeGreaterThanOrEqual(l1);
        expect(Number(((estimatedL1 - l1) * 10_000n) / l1)).toBeLessThanOrEqual(500);
      }
    }
    process.stdout.write(`source gas accuracy:\n  ${lines.join('\n  ')}\n`);
  }, 120_000);

  it('plans as prepare does when the wallet already has a short allowance: a USDT reset first, still exact', async () => {
    const usdt = [source(1, 'USDT', '40000000', '40')];
    // Where the USDT goes: the spender of the approval a first quote's prepare builds.
    const first = await quote(4, usdt);
    const prepared = await post(`/api/external/intents/${first.intentSessionId}/prepare`, {});
    expect(prepared.status).toBe(200);
    const approve = prepared.json.chainActions[0].transactions[0];
    const { args } = decodeFunctionData({ abi: erc20Abi, data: approve.data as Hex });
    const spender = args[0] as Hex;
    // The wallet approves 1 base unit: short of 40 USDT, and USDT refuses to change a non-zero allowance.
    const account = privateKeyToAccount(user(4).privateKey as Hex);
    const entry = sandbox.manifest.chains.find((c) => c.chainId === 1)!;
    const wallet = createWalletClient({
      account,
      chain: reader(1).chain,
      transport: http(entry.rpcUrl),
    });
    const hash = await wallet.writeContract({
      address: token(1, 'USDT') as Hex,
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, 1n],
    });
    await reader(1).waitForTransactionReceipt({ hash });

    const q = await quote(4, usdt);
    const [gas] = q.sourceGas.sources as SourceGas[];
    expect(gas.transactions.map((tx) => [tx.kind, tx.gasMethod])).toEqual([
      ['approve_reset', 'simulated'],
      ['approve', 'simulated'],
      ['deposit', 'simulated'],
    ]);
    const again = await post(`/api/external/intents/${q.intentSessionId}/prepare`, {});
    const done = await doWalletPart({
      prepared: again.json as PreparedForWalletPart,
      privateKey: user(4).privateKey as Hex,
      chains: sandbox.manifest.chains,
      pollingIntervalMs: 50,
    });
    const used = await Promise.all(
      done.chainResults[0].txHashes.map(
        async (h) => (await reader(1).getTransactionReceipt({ hash: h })).gasUsed,
      ),
    );
    expect(used.map(String)).toEqual(gas.transactions.map((tx) => tx.gasUnits));
  });

  it('flags a dust source on mainnet as uneconomic and, asked to, leaves it out: failedSources, allocation and coverage without it', async () => {
    const sources = [
      source(1, 'USDC', '1500000', '1.5'),
      source(8453, 'USDC', '50000000', '50'),
      source(8453, 'ETH', '10000000000000000', '30'),
    ];
    const callsBefore = await providerCalls();
    const flagged = await quote(2, sources);
    const callsFlagged = (await providerCalls()) - callsBefore;
    const flags = (flagged.sourceGas.sources as SourceGas[]).map((s) => [s.inputTokenIndex, s.uneconomic]);
    expect(flags).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ]);
    expect(flagged.sourceGas.totals.uneconomicSourceCount).toBe(1);
    // Flagged only: still routed.
    expect(
      flagged.allocationPlan.legs[0].sourceAllocations.map(
        (a: { inputTokenIndex: number }) => a.inputTokenIndex,
      ),
    ).toEqual([0, 1, 2]);

    const beforeLeft = await providerCalls();
    const left = await quote(2, sources, { excludeUneconomicSources: true });
    // Routed again without the dust source, on the first pass's answers: the providers were asked what the flagged
    // quote asked them, not that and the remaining sources a second time (before: 17 calls against 10).
    expect((await providerCalls()) - beforeLeft).toBe(callsFlagged);
    expect(left.quoteStatus).toBe('ready');
    expect(left.selectedPlan.isFullPlan).toBe(true);
    expect(
      left.allocationPlan.legs[0].sourceAllocations.map(
        (a: { inputTokenIndex: number }) => a.inputTokenIndex,
      ),
    ).toEqual([1, 2]);
    expect(left.failedSources).toEqual([
      expect.objectContaining({
        inputTokenIndex: 0,
        chainId: 1,
        reasonCode: 'source_uneconomic',
        provider: null,
        amount: '1500000',
      }),
    ]);
    expect(
      (left.sourceGas.sources as SourceGas[]).map((s) => [s.inputTokenIndex, s.excluded, s.uneconomic]),
    ).toEqual([
      [0, true, true],
      [1, false, false],
      [2, false, false],
    ]);
    expect(left.sourceGas.totals).toMatchObject({ excludedSourceCount: 1, uneconomicSourceCount: 0 });

    // At a threshold of 100% the dust source is left out only if its gas costs at least its whole value.
    const lenient = await quote(2, sources, {
      excludeUneconomicSources: true,
      uneconomicThresholdBps: 10_000,
    });
    const dust = (lenient.sourceGas.sources as SourceGas[])[0] as SourceGas & { costShareBps: number };
    expect(lenient.sourceGas.thresholdBps).toBe(10_000);
    expect(dust.excluded).toBe(dust.costShareBps >= 10_000);

    // What prepare builds from the exclusive quote: no action on mainnet at all.
    const prepared = await post(`/api/external/intents/${left.intentSessionId}/prepare`, {
      walletContext: { connectorName: 'Test', walletCapabilities: {} },
    });
    expect(prepared.status).toBe(200);
    expect(prepared.json.chainActions.map((a: { chainId: number }) => a.chainId)).toEqual([8453]);
  }, 120_000);

  it('left with no source at all, the quote is unavailable (never an empty ready plan) and prepare refuses it', async () => {
    const q = await quote(
      2,
      [source(1, 'USDC', '1500000', '1.5'), source(1, 'ETH', '100000000000000', '0.3')],
      {
        excludeUneconomicSources: true,
      },
    );
    expect(q.sourceGas.sources.map((s: SourceGas) => [s.inputTokenIndex, s.uneconomic, s.excluded])).toEqual([
      [0, true, true],
      [1, true, true],
    ]);
    expect(q).toMatchObject({ quoteStatus: 'unavailable', coverageMode: 'none', selectedPlan: null });
    expect(q.allocationPlan.legs[0].sourceAllocations).toEqual([]);
    expect(q.failedSources.map((f: { reasonCode: string }) => f.reasonCode)).toEqual([
      'source_uneconomic',
      'source_uneconomic',
    ]);
    const prepared = await post(`/api/external/intents/${q.intentSessionId}/prepare`, {});
    expect([prepared.status, prepared.json.code]).toEqual([409, 'intent_session_not_ready']);
  });

  it('falls back to the documented per-call figure for a call that cannot run as built (a wallet without the tokens)', async () => {
    const empty = '0x000000000000000000000000000000000000dEaD';
    const res = await post('/api/external/intents/quote', {
      walletAddress: empty,
      sources: [source(1, 'USDC', '25000000', '25')],
      target: {
        chainId: 42161,
        address: token(42161, 'USDC'),
        targetToken: { address: token(42161, 'USDC'), symbol: 'USDC', decimals: 6 },
      },
    });
    expect(res.status).toBe(200);
    const [gas] = res.json.sourceGas.sources as SourceGas[];
    // The approve runs (it needs no balance); the deposit pulls tokens the wallet does not hold and reverts.
    expect(gas.transactions.map((tx) => [tx.kind, tx.gasMethod])).toEqual([
      ['approve', 'simulated'],
      ['deposit', 'per_call_estimate'],
    ]);
    expect(gas.transactions[1].gasUnits).toBe('120000');
  });

  it('refuses a threshold out of bounds with its stable code', async () => {
    const res = await post('/api/external/intents/quote', {
      walletAddress: user(3).address,
      sources: [source(8453, 'USDC', '5000000', '5')],
      target: {
        chainId: 42161,
        address: token(42161, 'USDC'),
        targetToken: { address: token(42161, 'USDC'), symbol: 'USDC', decimals: 6 },
      },
      uneconomicThresholdBps: 99,
    });
    expect(res.status).toBe(400);
    expect(res.json.code).toBe('invalid_uneconomic_threshold_bps');
  });
});
