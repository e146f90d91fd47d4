import { type ExecutionCall } from '@svc/domain';
import { decodeFunctionData, erc20Abi, maxUint256, type Address, type Hex } from 'viem';
import { InvalidQuotedExecutionError } from './invalid-quoted-execution.error';
import { sameAddress } from './same-address';

/** Every stored approval of one (token, spender) pair on one chain, summed. */
export interface ApprovalNeed {
  token: Address;
  spender: Address;
  /** The sum of the stored amounts, MaxUint256 when any is (or when the sum overflows uint256). */
  total: bigint;
  /** The stored approve calls, in execution order. */
  stored: ExecutionCall[];
  /** Position (within the chain's slices) of the first slice that approves this pair: it gets the approval. */
  firstSlice: number;
}

/** Groups the approve calls of a chain's slices (in execution order) by (token, spender), in order of appearance. */
export function approvalNeeds(slices: readonly { calls: readonly ExecutionCall[] }[]): ApprovalNeed[] {
  const needs = new Map<string, ApprovalNeed>();
  slices.forEach(({ calls }, sliceIndex) => {
    for (const call of calls) {
      if (call.kind !== 'approve') continue;
      const { token, spender, amount } = checkedApproval(call);
      const key = `${token.toLowerCase()}|${spender.toLowerCase()}`;
      const need = needs.get(key);
      if (need === undefined) {
        needs.set(key, { token, spender, total: amount, stored: [call], firstSlice: sliceIndex });
      } else {
        need.total = addCapped(need.total, amount);
        need.stored.push(call);
      }
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

function decodeApprove(data: Hex): { spender: Address; amount: bigint } | null {
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data });
    return decoded.functionName === 'approve' ? { spender: decoded.args[0], amount: decoded.args[1] } : null;
  } catch {
    return null;
  }
}

function addCapped(a: bigint, b: bigint): bigint {
  return a === maxUint256 || b === maxUint256 || a + b > maxUint256 ? maxUint256 : a + b;
}
