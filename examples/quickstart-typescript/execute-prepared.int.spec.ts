import { randomBytes } from 'node:crypto';
import type { PrepareResponse } from '@intent-service/partner-client';
import {
  ChainActionRevertedError,
  executePrepared,
  type ExecuteStep,
} from '@intent-service/partner-client/viem';
import { ANVIL_ACCOUNTS, type AnvilInstance, startAnvil } from '@svc/testing';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  http,
  verifyTypedData,
} from 'viem';

/**
 * executePrepared's decision between one atomic `wallet_sendCalls` batch and the calls one by one, on a real anvil
 * chain. The wallet is a JSON-RPC account (anvil's unlocked dev account) behind a transport that adds the EIP-5792
 * methods anvil lacks: `wallet_getCapabilities` answers what each case says, `wallet_sendCalls` sends the batch's
 * calls to anvil as transactions and `wallet_getCallsStatus` reports their real receipts. (It is not atomic: anvil
 * cannot be; what is proved is which wallet methods the SDK calls, with what, and what it reports.) The sequential
 * path with a local account against the sandbox's chains is proved by the quickstart, which tools/sdks/sdk-flows.e2e.spec.ts
 * runs against npm start.
 */
// Not the other pieces of the test harness: libs/partner-client cannot import @svc/testing (it depends on the SDK).
const from = ANVIL_ACCOUNTS[3].address;
const [to1, to2] = [ANVIL_ACCOUNTS[4].address, ANVIL_ACCOUNTS[5].address];
// PUSH1 0 PUSH1 0 REVERT, deployed by an init code that returns those 5 bytes.
const REVERTING_INIT_CODE = '0x6460006000fd6000526005601bf3';

let anvil: AnvilInstance;
let reverter: Address;
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 });
  const reader = createPublicClient({ transport: http(anvil.rpcUrl) });
  const hash = await rpc<Hex>('eth_sendTransaction', [{ from, data: REVERTING_INIT_CODE }]);
  reverter = (await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 })).contractAddress!;
}, 30_000);
afterAll(() => anvil?.stop());

async function rpc<T>(method: string, params: unknown[]): Promise<T> {
  const response = await fetch(anvil.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: T; error?: { code: number; message: string } };
  if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.result as T;
}

/** A wallet over anvil that answers the EIP-5792 methods, recording every wallet method it is asked. */
function eip5792Wallet(capabilities: Record<string, unknown> | 'unsupported', startOnChainId = 31337) {
  const asked: { method: string; params: unknown }[] = [];
  // The chain the wallet is on, as a browser wallet reports it (eth_chainId) and switches it.
  let current = startOnChainId;
  const bundles = new Map<string, Hex[]>();
  const chain = defineChain({
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  });
  const transport = custom({
    async request({ method, params }: { method: string; params?: unknown }) {
      if (/^wallet_|^eth_sendTransaction$|^eth_getTransactionReceipt$/.test(method))
        asked.push({ method, params });
      if (method === 'eth_chainId') return `0x${current.toString(16)}`;
      if (method === 'wallet_switchEthereumChain') {
        current = Number((params as [{ chainId: string }])[0].chainId);
        return null;
      }
      if (method === 'wallet_getCapabilities') {
        if (capabilities === 'unsupported') {
          throw Object.assign(new Error('Method not found'), { code: -32601 });
        }
        return capabilities;
      }
      if (method === 'wallet_sendCalls') {
        const [request] = params as [{ from: Address; calls: { to: Address; data?: Hex; value?: Hex }[] }];
        const hashes: Hex[] = [];
        for (const call of request.calls) {
          hashes.push(await rpc<Hex>('eth_sendTransaction', [{ from: request.from, ...call }]));
        }
        const id = `0x${randomBytes(32).toString('hex')}`;
        bundles.set(id, hashes);
        return { id };
      }
      if (method === 'wallet_getCallsStatus') {
        const [id] = params as [string];
        const receipts = await Promise.all(
          bundles.get(id)!.map((h) => rpc<Record<string, unknown>>('eth_getTransactionReceipt', [h])),
        );
        return { version: '2.0.0', id, chainId: '0x7a69', atomic: true, status: 200, receipts };
      }
      return rpc(method, (params as unknown[] | undefined) ?? []);
    },
  });
  return { asked, wallet: createWalletClient({ account: from, chain, transport }) };
}

function prepared(calls: { to: Address; data?: Hex; value?: string; gas?: string }[]): PrepareResponse {
  return {
    apiVersion: '1',
    attemptId: 'at_test',
    intentSessionId: 'is_test',
    status: 'awaiting_evidence' as PrepareResponse['status'],
    expiresAt: new Date(Date.now() + 30_000).toISOString(),
    chainActions: [
      {
        chainId: 31337,
        provider: 'relay',
        submitMethod: 'wallet_sendCalls',
        atomicRequired: false,
        calls: calls.map((c, i) => ({
          to: c.to,
          data: c.data ?? '0x',
          value: c.value ?? '1',
          callId: `c${i}`,
          callIndex: i,
          quoteIndex: 0,
          gas: c.gas ?? null,
        })),
        transactions: null,
        transactionCount: calls.length,
        quoteCount: 1,
        quotePlans: [],
        perLegPreview: [],
      },
    ],
    walletAuthorization: {
      domain: { name: 'Test', version: '1' },
      types: { Note: [{ name: 'text', type: 'string' }] },
      primaryType: 'Note',
      message: { text: 'hello' } as never,
    },
  };
}

/** The wallet methods asked, in order, a receipt polled several times counted once. */
const wallets = (asked: { method: string }[]) =>
  asked.map((a) => a.method).filter((m, i, all) => m !== 'eth_getTransactionReceipt' || all[i - 1] !== m);

describe('executePrepared: atomic batch or calls one by one', () => {
  it('sends one wallet_sendCalls batch when the wallet reports atomic support for the chain', async () => {
    const { asked, wallet } = eip5792Wallet({ '0x7a69': { atomic: { status: 'supported' } } });
    const steps: ExecuteStep[] = [];
    const result = await executePrepared(wallet, prepared([{ to: to1 }, { to: to2 }]), {
      pollingIntervalMs: 50,
      onProgress: (s) => steps.push(s),
    });
    expect(wallets(asked)).toEqual(['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus']);
    const sent = (asked[1].params as [{ calls: { to: string }[]; atomicRequired: boolean }])[0];
    expect(sent.calls.map((c) => c.to.toLowerCase())).toEqual([to1.toLowerCase(), to2.toLowerCase()]);
    expect(sent.atomicRequired).toBe(true);
    const [chainResult] = result.chainResults;
    expect(chainResult.bundleId).toMatch(/^0x[0-9a-f]{64}$/);
    expect(chainResult.txHashes).toHaveLength(2);
    expect(steps.map((s) => s.kind)).toEqual(['authorization_signed', 'calls_sent', 'calls_confirmed']);
    expect(result.submittedBody).toEqual({
      chainResults: result.chainResults,
      walletAuthorization: { signature: result.signature },
    });
    const { walletAuthorization: typed } = prepared([]);
    expect(await verifyTypedData({ address: from, ...typed!, signature: result.signature } as never)).toBe(
      true,
    );
  });

  it.each([
    ['does not answer wallet_getCapabilities', 'unsupported' as const],
    ['reports atomic support for another chain only', { '0x1': { atomic: { status: 'supported' } } }],
    ['reports atomic as unsupported', { '0x7a69': { atomic: { status: 'unsupported' } } }],
  ])('sends the calls one by one, each after the previous receipt, when the wallet %s', async (_l, caps) => {
    const { asked, wallet } = eip5792Wallet(caps);
    const result = await executePrepared(wallet, prepared([{ to: to1 }, { to: to2 }]), {
      pollingIntervalMs: 50,
    });
    expect(wallets(asked)).toEqual([
      'wallet_getCapabilities',
      'eth_sendTransaction',
      'eth_getTransactionReceipt',
      'eth_sendTransaction',
      'eth_getTransactionReceipt',
    ]);
    expect(result.chainResults).toEqual([
      { chainId: 31337, txHashes: [expect.any(String), expect.any(String)] },
    ]);
  });

  it('takes the older atomicBatch.supported and the every-chain 0x0 entry as support', async () => {
    const { asked, wallet } = eip5792Wallet({ '0x0': { atomicBatch: { supported: true } } });
    await executePrepared(wallet, prepared([{ to: to1 }]), { pollingIntervalMs: 50 });
    expect(wallets(asked)).toContain('wallet_sendCalls');
  });

  it('with atomicBatches: never, sends one by one without asking the wallet', async () => {
    const { asked, wallet } = eip5792Wallet({ '0x7a69': { atomic: { status: 'supported' } } });
    await executePrepared(wallet, prepared([{ to: to1 }]), { pollingIntervalMs: 50, atomicBatches: 'never' });
    expect(wallets(asked)).toEqual(['eth_sendTransaction', 'eth_getTransactionReceipt']);
  });

  it('switches a single wallet client to the chain of the action first (wallet_switchEthereumChain)', async () => {
    const { asked, wallet } = eip5792Wallet('unsupported', 1);
    const steps: ExecuteStep[] = [];
    await executePrepared(wallet, prepared([{ to: to1 }]), {
      pollingIntervalMs: 50,
      onProgress: (s) => steps.push(s),
    });
    expect(wallets(asked).slice(0, 2)).toEqual(['wallet_switchEthereumChain', 'wallet_getCapabilities']);
    expect(asked[0].params).toEqual([{ chainId: '0x7a69' }]);
    expect(steps.map((s) => s.kind)).toEqual([
      'authorization_signed',
      'chain_switched',
      'transaction_sent',
      'transaction_confirmed',
    ]);
  });

  it('stops at a reverted call: nothing after it is sent', async () => {
    const { asked, wallet } = eip5792Wallet('unsupported');
    const run = executePrepared(
      wallet,
      prepared([{ to: to1 }, { to: reverter, value: '0', gas: '100000' }, { to: to2 }]),
      { pollingIntervalMs: 50 },
    );
    await expect(run).rejects.toBeInstanceOf(ChainActionRevertedError);
    await expect(run).rejects.toMatchObject({ chainId: 31337, index: 1, count: 3 });
    expect(wallets(asked).filter((m) => m === 'eth_sendTransaction')).toHaveLength(2);
  });
});
