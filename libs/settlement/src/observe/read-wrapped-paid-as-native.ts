import {
  decodeEventLog,
  isAddressEqual,
  parseAbi,
  zeroAddress,
  type Address,
  type Chain,
  type Client,
  type Hash,
  type Log,
  type Transport,
} from 'viem';
import { readReceipt, readTransaction } from '@svc/chains';
import { readNative, type SettledAmount } from './read-settled-amount';

/**
 * How a wrapped native token shows it was unwrapped in a transaction: WETH9 emits `Withdrawal(src, wad)` (WETH9.sol;
 * the OP-stack predeploy is WETH9 too); Arbitrum's aeWETH burns, `Transfer(src, 0x0, amount)` (OffchainLabs
 * token-bridge-contracts contracts/tokenbridge/libraries/aeWETH.sol `withdrawTo` → `_burn`).
 */
const unwrapEventsAbi = parseAbi([
  'event Withdrawal(address indexed src, uint256 wad)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

/**
 * A wrapped-native target paid as the native currency (providers review N7). Across's SpokePool, when a deposit's
 * output token is its wrapped native token, unwraps it and sends ETH to a recipient that is an EOA or an EIP-7702
 * wallet (across-protocol/contracts contracts/spoke-pools/SpokePool.sol `_unwrapwrappedNativeTokenTo`:
 * `wrappedNativeToken.withdraw(amount)` then `sendValue(to, amount)`), so the recipient receives no WETH at all.
 *
 * Read when the recipient received none of `token` in the fill: if `token` itself was unwrapped in the transaction,
 * the native value the recipient received, at most the amount unwrapped, is the delivery, in the native currency
 * (`deliveredToken` the zero address). The bound keeps other native value paid in the same transaction from counting
 * as this token. null: `token` was not unwrapped there, or the recipient received no native value (the read of `token`
 * stands). Unreadable (untraceable) when the value was paid by a contract and the node cannot trace it.
 */
export async function readWrappedPaidAsNative(
  client: Client<Transport, Chain | undefined>,
  { fillTxHash: hash, recipient, token }: { fillTxHash: Hash; recipient: Address; token: Address },
): Promise<SettledAmount | null> {
  const [tx, receipt] = await Promise.all([readTransaction(client, { hash }), readReceipt(client, { hash })]);
  if (!tx || !receipt || receipt.status !== 'success') return null;
  const unwrapped = unwrappedAmount(receipt.logs, token);
  if (unwrapped === 0n) return null;
  const native = await readNative(client, tx, recipient);
  if (native.basis !== 'exact') return native;
  const amount = native.amount < unwrapped ? native.amount : unwrapped;
  return amount > 0n ? { basis: 'exact', amount, deliveredToken: zeroAddress } : null;
}

/** What `token` unwrapped in the transaction: its Withdrawal events, and its burns (transfers to the zero address). */
export function unwrappedAmount(
  logs: readonly Pick<Log, 'address' | 'topics' | 'data'>[],
  token: Address,
): bigint {
  let total = 0n;
  for (const log of logs) {
    if (!isAddressEqual(log.address, token)) continue;
    try {
      const event = decodeEventLog({
        abi: unwrapEventsAbi,
        topics: log.topics,
        data: log.data,
      });
      if (event.eventName === 'Withdrawal') total += event.args.wad;
      else if (isAddressEqual(event.args.to, zeroAddress)) total += event.args.value;
    } catch {
      // Another event of the token.
    }
  }
  return total;
}
