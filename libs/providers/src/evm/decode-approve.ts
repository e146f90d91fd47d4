import {
  type Address,
  decodeAbiParameters,
  erc20Abi,
  getAbiItem,
  getAddress,
  type Hex,
  slice,
  toFunctionSelector,
} from 'viem';

/**
 * Computed once: `decodeFunctionData({ abi: erc20Abi })` hashes the signature of every function it tries (a keccak
 * per ABI entry per call), which was 7 % of the service's CPU under a 150-slice quote (tools/bench/results/profiles.md,
 * "Quote path").
 */
const APPROVE = getAbiItem({ abi: erc20Abi, name: 'approve' });
const APPROVE_SELECTOR = toFunctionSelector(APPROVE);
const TRANSFER = getAbiItem({ abi: erc20Abi, name: 'transfer' });
const TRANSFER_SELECTOR = toFunctionSelector(TRANSFER);

/** The spender and amount of `approve(spender, amount)` calldata, or null when the data is something else. */
export function decodeApprove(data: Hex): { spender: Address; amount: bigint } | null {
  const args = decodeErc20Call(data, APPROVE_SELECTOR, APPROVE);
  return args === null ? null : { spender: args[0], amount: args[1] };
}

/** The recipient and amount of ERC-20 `transfer(to, amount)` calldata, or null when the data is something else. */
export function decodeTransfer(data: Hex): { to: Address; amount: bigint } | null {
  const args = decodeErc20Call(data, TRANSFER_SELECTOR, TRANSFER);
  return args === null ? null : { to: args[0], amount: args[1] };
}

/** Even-length hex after the `0x`: what the two-word fast path reads (anything else goes through viem). */
const PLAIN_HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
/** Selector (4 bytes) + address word + amount word, in hex characters with the `0x`. */
const TWO_WORDS = 2 + 8 + 64 + 64;

/**
 * As `decodeFunctionData` matches a selector (case as given) and decodes `(address, uint256)`; null where it would
 * throw. Well-formed calldata is read straight from its two words (the address checksummed as viem decodes it, the
 * amount unsigned, trailing bytes ignored), which costs a fraction of viem's generic decoder.
 */
function decodeErc20Call(
  data: Hex,
  selector: Hex,
  item: typeof APPROVE | typeof TRANSFER,
): readonly [Address, bigint] | null {
  try {
    if (data.length >= TWO_WORDS && PLAIN_HEX.test(data)) {
      if (data.slice(0, 10) !== selector) return null;
      return [getAddress(`0x${data.slice(34, 74)}`), BigInt(`0x${data.slice(74, 138)}`)];
    }
    if (slice(data, 0, 4) !== selector) return null;
    return decodeAbiParameters(item.inputs, slice(data, 4));
  } catch {
    return null;
  }
}
