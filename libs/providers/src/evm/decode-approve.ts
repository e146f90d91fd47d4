import { type Address, decodeFunctionData, erc20Abi, type Hex } from 'viem';

/** The spender and amount of `approve(spender, amount)` calldata, or null when the data is something else. */
export function decodeApprove(data: Hex): { spender: Address; amount: bigint } | null {
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data });
    if (decoded.functionName !== 'approve') return null;
    const [spender, amount] = decoded.args;
    return { spender, amount };
  } catch {
    return null;
  }
}
