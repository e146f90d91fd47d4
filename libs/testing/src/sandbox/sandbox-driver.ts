import {
  type Account,
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signedRequest, type TestPartner } from '../http/signed-request';
import { BatchExecutorArtifact } from '../anvil/test-contract-artifacts';
import { type SandboxProcess } from './sandbox-process';

type Source = [chainId: number, symbol: string, rawAmount: string];
/** The parts of a prepare response a wallet needs. */
export interface PreparedForWallet {
  attemptId: string;
  chainActions: {
    chainId: number;
    submitMethod: string;
    transactions: { to: Hex; data: Hex; value: string }[] | null;
    calls: { to: Hex; data: Hex; value: string }[] | null;
  }[];
  walletAuthorization: Parameters<Account['signTypedData'] & object>[0];
}
export type ChainResults = { chainId: number; txHashes: Hex[] }[];

const DECIMALS: Record<string, number> = { USDC: 6, USDT: 6, WETH: 18, ETH: 18 };

/**
 * Drives the service as a partner and its users' wallets would, against the provider sandbox: fresh funded wallets (so
 * many attempts can run at once without sharing nonces or allowances), quote → prepare, executing the returned chain
 * actions (one transaction each, or one EIP-7702 batch), signing and reporting. Used by the settlement soak test and
 * the settlement benchmark.
 */
export class SandboxDriver {
  private readonly readers = new Map<number, PublicClient>();

  constructor(
    private readonly o: { port: number; partner: TestPartner; sandbox: SandboxProcess; now?: () => number },
  ) {}

  async api(method: string, path: string, body?: unknown, key?: string) {
    return signedRequest({
      port: this.o.port,
      partner: this.o.partner,
      method,
      path,
      body,
      ...(method === 'POST' ? { idempotencyKey: key ?? `drv-${Math.random().toString(36).slice(2)}` } : {}),
      timestamp: (this.o.now ?? Date.now)(),
    });
  }

  token(chainId: number, symbol: string): Hex {
    return (symbol === 'ETH' ? zeroAddress : this.o.sandbox.token(chainId, symbol)) as Hex;
  }

  chain(chainId: number) {
    const entry = this.o.sandbox.manifest.chains.find((c) => c.chainId === chainId)!;
    return defineChain({
      id: chainId,
      name: entry.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
  }

  reader(chainId: number): PublicClient {
    let reader = this.readers.get(chainId);
    if (!reader) {
      const chain = this.chain(chainId);
      reader = createPublicClient({
        chain,
        transport: http(chain.rpcUrls.default.http[0]),
        pollingInterval: 25,
      });
      this.readers.set(chainId, reader);
    }
    return reader;
  }

  wallet(account: Account, chainId: number) {
    const chain = this.chain(chainId);
    return createWalletClient({ account, chain, transport: http(chain.rpcUrls.default.http[0]) });
  }

  /**
   * `count` fresh wallets, each given 1 ETH and `tokens` (symbol → raw amount) on every chain of `chainIds`, paid by the
   * sandbox's funded users (each user funds its share in nonce order).
   */
  async fundWallets(count: number, chainIds: number[], tokens: Record<string, bigint>): Promise<Account[]> {
    const accounts = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
    const funders = this.o.sandbox.manifest.wallets.users.map((u) =>
      privateKeyToAccount(u.privateKey as Hex),
    );
    await Promise.all(
      funders.map(async (funder, f) => {
        for (const chainId of chainIds) {
          const wallet = this.wallet(funder, chainId);
          let last: Hex | undefined;
          for (let i = f; i < accounts.length; i += funders.length) {
            const to = accounts[i].address;
            last = await wallet.sendTransaction({ to, value: parseEther('1') });
            for (const [symbol, amount] of Object.entries(tokens)) {
              last = await wallet.writeContract({
                address: this.token(chainId, symbol),
                abi: erc20Abi,
                functionName: 'transfer',
                args: [to, amount],
              });
            }
          }
          if (last) await this.reader(chainId).waitForTransactionReceipt({ hash: last });
        }
      }),
    );
    return accounts;
  }

  /** quote → prepare; throws on anything but a ready quote and a prepared attempt. */
  async prepare(
    account: Account,
    sources: Source[],
    options: { recipient?: string; providers?: string[]; caps?: unknown; target?: [number, string] } = {},
  ): Promise<{ attempt: PreparedForWallet; recipient: string; intentSessionId: string }> {
    const recipient = options.recipient ?? privateKeyToAccount(generatePrivateKey()).address;
    const [targetChain, targetSymbol] = options.target ?? [8453, 'USDC'];
    const target = this.token(targetChain, targetSymbol);
    const quote = await this.api('POST', '/api/external/intents/quote', {
      walletAddress: account.address,
      recipient,
      sources: sources.map(([chainId, symbol, amount]) => ({
        chainId,
        address: this.token(chainId, symbol),
        amount,
        symbol,
        decimals: DECIMALS[symbol],
      })),
      target: {
        chainId: targetChain,
        address: target,
        targetToken: { address: target, symbol: targetSymbol, decimals: DECIMALS[targetSymbol] },
      },
      ...(options.providers ? { allowedProviders: options.providers } : {}),
    });
    const quoted = quote.json as { quoteStatus?: string; intentSessionId: string };
    if (quote.status !== 200 || quoted.quoteStatus !== 'ready') {
      throw new Error(`quote: ${quote.status} ${quote.text}`);
    }
    const prepared = await this.api('POST', `/api/external/intents/${quoted.intentSessionId}/prepare`, {
      walletContext: { walletCapabilities: options.caps ?? {} },
    });
    if (prepared.status !== 200) throw new Error(`prepare: ${prepared.status} ${prepared.text}`);
    return {
      attempt: prepared.json as PreparedForWallet,
      recipient,
      intentSessionId: quoted.intentSessionId,
    };
  }

  /** Sends every returned transaction (or call) of every chain action, one transaction each, in order. */
  async execute(account: Account, attempt: PreparedForWallet): Promise<ChainResults> {
    const results: ChainResults = [];
    for (const action of attempt.chainActions) {
      const wallet = this.wallet(account, action.chainId);
      const txHashes: Hex[] = [];
      for (const tx of action.transactions ?? action.calls ?? []) {
        const hash = await wallet.sendTransaction({
          to: tx.to,
          data: tx.data,
          value: BigInt(tx.value),
          gas: 600_000n,
        });
        await this.reader(action.chainId).waitForTransactionReceipt({ hash });
        txHashes.push(hash);
      }
      results.push({ chainId: action.chainId, txHashes });
    }
    return results;
  }

  /**
   * Runs each chain action's calls as one EIP-7702 batch: the wallet delegates to `executor` (a BatchExecutor deployed
   * on that chain) and calls `executeBatch(calls)` on itself, as smart-account wallets do for `wallet_sendCalls`.
   */
  async executeBatch(account: Account, attempt: PreparedForWallet, executor: Hex): Promise<ChainResults> {
    const results: ChainResults = [];
    for (const action of attempt.chainActions) {
      const wallet = this.wallet(account, action.chainId);
      const calls = action.calls ?? action.transactions ?? [];
      const authorization = await wallet.signAuthorization({
        account,
        contractAddress: executor,
        executor: 'self',
      });
      const hash = await wallet.sendTransaction({
        account,
        to: account.address,
        authorizationList: [authorization],
        gas: 2_000_000n,
        data: encodeFunctionData({
          abi: BatchExecutorArtifact.abi,
          functionName: 'executeBatch',
          args: [calls.map((c) => ({ target: c.to, value: BigInt(c.value), data: c.data }))],
        }),
      });
      await this.reader(action.chainId).waitForTransactionReceipt({ hash });
      results.push({ chainId: action.chainId, txHashes: [hash] });
    }
    return results;
  }

  sign(account: Account, attempt: PreparedForWallet): Promise<Hex> {
    return account.signTypedData!(attempt.walletAuthorization);
  }

  async submit(attemptId: string, body: unknown): Promise<void> {
    const res = await this.api('POST', `/api/external/attempts/${attemptId}/submitted`, body);
    if (res.status !== 200) throw new Error(`submitted: ${res.status} ${res.text}`);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON; callers assert its shape
  async status(attemptId: string): Promise<any> {
    const res = await this.api('GET', `/api/external/attempts/${attemptId}/status`);
    return res.json as unknown;
  }

  async balance(chainId: number, symbol: string, owner: string): Promise<bigint> {
    const reader = this.reader(chainId);
    if (symbol === 'ETH') return reader.getBalance({ address: owner as Hex });
    return reader.readContract({
      address: this.token(chainId, symbol),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner as Hex],
    });
  }
}
