import { erc20Abi, maxUint256, type Address, type Hex, type TransactionReceipt } from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type ChainClients, type SandboxWalletClient } from '../rpc/chain-clients';
import { isNative } from '../tokens/token-directory';
import { FillRevertedError } from './fill-reverted-error';
import { FillSucceededError } from './fill-succeeded-error';
import { NativePayouts } from './native-payouts';
import { type AcrossRelayFill, fillRelayCalldata } from './across-relay-fills';

/**
 * Gas for a transfer meant to revert: set explicitly, because estimating a reverting call fails and the
 * transaction would never be sent. An ERC-20 transfer reverts well within it.
 */
const REVERTING_TRANSFER_GAS = 100_000n;

export interface SendTokens {
  provider: SandboxProvider;
  chainId: number;
  /** The zero address sends native ETH. */
  token: Address;
  to: Address;
  amount: bigint;
  /** An ERC-20 transfer that must be mined and revert (the reverted-fill scenario); resolves once it has. */
  reverts?: boolean;
  /** Called with the hash once the transaction is sent, before it is mined. */
  onSent?(hash: Hex): void;
}

/**
 * Sends tokens from a provider's filler account. Transactions of one filler on one chain go one at a time,
 * so concurrent fills never race for the same nonce.
 */
export class TokenSender {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly wallets = new Map<string, SandboxWalletClient>();
  private readonly native = new NativePayouts();

  constructor(
    private readonly clients: ChainClients,
    private readonly fillers: Readonly<Record<SandboxProvider, { privateKey: Hex }>>,
  ) {}

  send(params: SendTokens): Promise<Hex> {
    const key = `${params.provider}:${params.chainId}`;
    return this.enqueue(key, () => this.sendNow(key, params));
  }

  /**
   * Fills Across deposits through the destination SpokePool from the Across filler, as the relayer does: one
   * `fillRelay`, or several in one `multicall` (across-protocol/relayer src/clients/MultiCallerClient.ts
   * `buildMultiCallBundles`). The pool pulls each output from the filler, which approves it once per token.
   */
  fillAcross(params: {
    chainId: number;
    pool: Address;
    fills: readonly AcrossRelayFill[];
    onSent?(hash: Hex): void;
  }): Promise<Hex> {
    const key = `across:${params.chainId}`;
    return this.enqueue(key, () => this.fillAcrossNow(key, params));
  }

  /**
   * One contract call from a provider's filler account, in that filler's queue on the chain (the sandbox's CCTP
   * finalizer sends its mint batches from the Across filler). Resolves with the receipt once mined, reverted or not.
   */
  call(params: {
    provider: SandboxProvider;
    chainId: number;
    to: Address;
    data: Hex;
    gas?: bigint;
    onSent?(hash: Hex): void;
  }): Promise<TransactionReceipt> {
    const key = `${params.provider}:${params.chainId}`;
    let receipt: TransactionReceipt | undefined;
    return this.enqueue(key, async () => {
      const wallet = this.wallet(key, params);
      const hash = await wallet.sendTransaction({
        to: params.to,
        data: params.data,
        ...(params.gas ? { gas: params.gas } : {}),
      });
      params.onSent?.(hash);
      receipt = await this.clients.public(params.chainId).waitForTransactionReceipt({ hash });
      return hash;
    }).then(() => receipt!);
  }

  private enqueue(key: string, run: () => Promise<Hex>): Promise<Hex> {
    const next = (this.queues.get(key) ?? Promise.resolve()).then(run, run);
    this.queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  private async fillAcrossNow(
    key: string,
    params: { chainId: number; pool: Address; fills: readonly AcrossRelayFill[]; onSent?(hash: Hex): void },
  ): Promise<Hex> {
    const wallet = this.wallet(key, { provider: 'across', chainId: params.chainId });
    const client = this.clients.public(params.chainId);
    for (const token of new Set(params.fills.map((f) => f.delivery.token))) {
      const allowance = await client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [wallet.account.address, params.pool],
      });
      if (allowance >= maxUint256 / 2n) continue;
      const approval = await wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'approve',
        args: [params.pool, maxUint256],
      });
      await client.waitForTransactionReceipt({ hash: approval });
    }
    const calls = params.fills.map((f) => fillRelayCalldata(f, wallet.account.address));
    const hash =
      calls.length === 1
        ? await wallet.sendTransaction({ to: params.pool, data: calls[0] })
        : await wallet.writeContract({
            address: params.pool,
            abi: AcrossSpokePoolArtifact.abi,
            functionName: 'multicall',
            args: [calls],
          });
    params.onSent?.(hash);
    const receipt = await client.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new FillRevertedError(hash);
    return hash;
  }

  private async sendNow(key: string, params: SendTokens): Promise<Hex> {
    const wallet = this.wallet(key, params);
    if (params.reverts && isNative(params.token)) {
      throw new Error('a native transfer to an account cannot be made to revert');
    }
    const hash = isNative(params.token)
      ? await this.sendNative(wallet, params)
      : await wallet.writeContract({
          address: params.token,
          abi: erc20Abi,
          functionName: 'transfer',
          args: [params.to, params.amount],
          ...(params.reverts ? { gas: REVERTING_TRANSFER_GAS } : {}),
        });
    params.onSent?.(hash);
    const receipt = await this.clients.public(params.chainId).waitForTransactionReceipt({ hash });
    const reverted = receipt.status !== 'success';
    if (reverted && !params.reverts) throw new FillRevertedError(hash);
    if (!reverted && params.reverts) throw new FillSucceededError(hash);
    return hash;
  }

  /**
   * Native value as each provider pays it (issue 24 S15): Relay's solver sends it to the recipient directly (Relay's
   * direct native fill; relay-protocol-oracle `getSolverPaidAmount`); Across's SpokePool and Mayan's Swift pay it from
   * inside the contract by an internal call (SpokePool `sendValue`, Swift `payEth`), which only a trace shows.
   */
  private sendNative(wallet: SandboxWalletClient, params: SendTokens): Promise<Hex> {
    if (params.provider === 'relay') return wallet.sendTransaction({ to: params.to, value: params.amount });
    return this.native.pay(wallet, this.clients.public(params.chainId), {
      kind: 'internal_call',
      to: params.to,
      amount: params.amount,
    });
  }

  private wallet(key: string, params: Pick<SendTokens, 'provider' | 'chainId'>): SandboxWalletClient {
    let wallet = this.wallets.get(key);
    if (!wallet) {
      wallet = this.clients.wallet(params.chainId, this.fillers[params.provider].privateKey);
      this.wallets.set(key, wallet);
    }
    return wallet;
  }
}
