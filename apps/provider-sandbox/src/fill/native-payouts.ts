import { encodeFunctionData, type Address, type Hex } from 'viem';
import { NativeFillerArtifact } from '../contracts/artifacts';
import { type SandboxPublicClient, type SandboxWalletClient } from '../rpc/chain-clients';

/**
 * How a native output is paid from inside a contract, as the providers' fill contracts pay it (providers review S15,
 * S16), instead of a plain transfer from the filler:
 * - `internal_call`: the value passed on by `call{value}` (Across's SpokePool `sendValue`, Mayan's Swift `payEth`);
 * - `wrapped_as_native`: a WETH output paid as ETH, wrapped, unwrapped and sent on (across-protocol/contracts
 *   contracts/spoke-pools/SpokePool.sol `_unwrapwrappedNativeTokenTo`), so the WETH contract logs a `Withdrawal`
 *   and the recipient receives ETH, no WETH.
 * Either way the receipt shows no value paid to the recipient: only a trace does.
 */
export type NativePayout =
  | { kind: 'internal_call'; to: Address; amount: bigint }
  | { kind: 'wrapped_as_native'; weth: Address; to: Address; amount: bigint };

/**
 * Pays native outputs through a NativeFiller contract the filler deploys on first use on each chain. Calls must be
 * made inside the filler's transaction queue (TokenSender): the deployment and the payment are the filler's
 * transactions.
 */
export class NativePayouts {
  private readonly fillers = new Map<string, Promise<Address>>();

  /** Sends the payout from `wallet` and returns its hash (not waited for). */
  async pay(wallet: SandboxWalletClient, client: SandboxPublicClient, payout: NativePayout): Promise<Hex> {
    const filler = await this.fillerOf(wallet, client);
    return wallet.sendTransaction({
      to: filler,
      value: payout.amount,
      data:
        payout.kind === 'internal_call'
          ? encodeFunctionData({
              abi: NativeFillerArtifact.abi,
              functionName: 'payNative',
              args: [payout.to],
            })
          : encodeFunctionData({
              abi: NativeFillerArtifact.abi,
              functionName: 'payWrappedAsNative',
              args: [payout.weth, payout.to],
            }),
    });
  }

  private fillerOf(wallet: SandboxWalletClient, client: SandboxPublicClient): Promise<Address> {
    const key = `${wallet.chain.id}:${wallet.account.address}`;
    let filler = this.fillers.get(key);
    if (filler === undefined) {
      filler = deploy(wallet, client);
      this.fillers.set(key, filler);
      filler.catch(() => this.fillers.delete(key));
    }
    return filler;
  }
}

async function deploy(wallet: SandboxWalletClient, client: SandboxPublicClient): Promise<Address> {
  const hash = await wallet.deployContract({
    abi: NativeFillerArtifact.abi,
    bytecode: NativeFillerArtifact.bytecode,
  });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`NativeFiller deployment ${hash} failed`);
  }
  return receipt.contractAddress;
}

/**
 * Whether Across's SpokePool pays a WETH output to `recipient` as ETH: when it is an EOA (no code) or an EIP-7702
 * delegated wallet (code `0xef0100` ‖ delegate) (SpokePool.sol `_unwrapwrappedNativeTokenTo`,
 * `_is7702DelegatedWallet`); another contract gets WETH.
 */
export async function paidAsNativeByAcross(
  client: SandboxPublicClient,
  recipient: Address,
): Promise<boolean> {
  const code = await client.getCode({ address: recipient });
  return code === undefined || code === '0x' || code.toLowerCase().startsWith('0xef0100');
}
