import { type ExecutionCall } from '@svc/domain';
import { decodeAbiParameters, maxUint256, toFunctionSelector, type Address, type Hex } from 'viem';
import { InvalidQuotedExecutionError } from './invalid-quoted-execution.error';
import { sameAddress } from './same-address';

/** Every stored approval of one (token, spender) pair on one chain, summed. */
export interface ApprovalNeed {
  token: Address;
  spender: Address;
  /** What the slices' deposits pull: each stored amount capped at its slice's source amount, summed. */
  total: bigint;
  /** Position (within the chain's slices) of the first slice that approves this pair: it gets the approval. */
  firstSlice: number;
}

/**
 * Groups the approve calls of a chain's slices (in execution order) by (token, spender), in order of appearance.
 * A provider's approval never counts for more than its slice's amount: Across asks for MaxUint256
 * (across-protocol/frontend api/swap/approval/_service.ts), and an unlimited allowance outlives the deposit.
 */
export function approvalNeeds(
  slices: readonly { calls: readonly ExecutionCall[]; amount: bigint }[],
): ApprovalNeed[] {
  const needs = new Map<string, ApprovalNeed>();
  slices.forEach(({ calls, amount: sliceAmount }, sliceIndex) => {
    for (const call of calls) {
      if (call.kind !== 'approve') continue;
      const { token, spender, amount } = checkedApproval(call);
      const needed = amount < sliceAmount ? amount : sliceAmount;
      const key = `${token.toLowerCase()}|${spender.toLowerCase()}`;
      const need = needs.get(key);
      if (need === undefined) needs.set(key, { token, spender, total: needed, firstSlice: sliceIndex });
      else need.total = addCapped(need.total, needed);
    }
  });
  return [...needs.values()];
}

/** The stored approval details, checked against the calldata that would be sent verbatim. */
export function checkedApproval(call: ExecutionCall): { token: Address; spender: Address; amount: bigint } {
  const { approval } = call;
  if (approval === null) throw new InvalidQuotedExecutionError(`approve call to ${call.to} has no approval`);
  const amount = BigInt(approval.amount);
  const decoded = decodeApprove(call.data as Hex);
  const matches =
    decoded !== null &&
    sameAddress(call.to, approval.token) &&
    sameAddress(decoded.spender, approval.spender) &&
    decoded.amount === amount;
  if (!matches) {
    throw new InvalidQuotedExecutionError(
      `approve call to ${call.to} does not encode approve(${approval.spender}, ${approval.amount}) on ${approval.token}`,
    );
  }
  return { token: approval.token as Address, spender: approval.spender as Address, amount };
}

/** ERC-20 `approve(address,uint256)`, hashed once: viem's decodeFunctionData hashes every ABI signature per call. */
const APPROVE_SELECTOR = toFunctionSelector('approve(address,uint256)');

/** The spender and amount of `approve(address,uint256)` calldata, or null for any other call. */
export function decodeApprove(data: Hex): { spender: Address; amount: bigint } | null {
  if (data.slice(0, 10).toLowerCase() !== APPROVE_SELECTOR) return null;
  try {
    const [spender, amount] = decodeAbiParameters(
      [{ type: 'address' }, { type: 'uint256' }],
      `0x${data.slice(10)}`,
    );
    return { spender, amount };
  } catch {
    return null;
  }
}

function addCapped(a: bigint, b: bigint): bigint {
  return a === maxUint256 || b === maxUint256 || a + b > maxUint256 ? maxUint256 : a + b;
}
