import { erc20Abi, type Address, type Hex } from 'viem';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { type ChainClients, type SandboxWalletClient } from '../rpc/chain-clients';
import { isNative } from '../tokens/token-directory';
import { FillRevertedError } from './fill-reverted-error';
import { FillSucceededError } from './fill-succeeded-error';

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

  constructor(
    private readonly clients: ChainClients,
    private readonly fillers: Readonly<Record<SandboxProvider, { privateKey: Hex }>>,
  ) {}

  send(params: SendTokens): Promise<Hex> {
    const key = `${params.provider}:${params.chainId}`;
    const run = () => this.sendNow(key, params);
    const next = (this.queues.get(key) ?? Promise.resolve()).then(run, run);
    this.queues.set(
      key,
      next.catch(() => undefined),
    );
    return next;
  }

  private async sendNow(key: string, params: SendTokens): Promise<Hex> {
    const wallet = this.wallet(key, params);
    if (params.reverts && isNative(params.token)) {
      throw new Error('a native transfer to an account cannot be made to revert');
    }
    const hash = isNative(params.token)
      ? await wallet.sendTransaction({ to: params.to, value: params.amount })
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

  private wallet(key: string, params: SendTokens): SandboxWalletClient {
    let wallet = this.wallets.get(key);
    if (!wallet) {
      wallet = this.clients.wallet(params.chainId, this.fillers[params.provider].privateKey);
      this.wallets.set(key, wallet);
    }
    return wallet;
  }
}
