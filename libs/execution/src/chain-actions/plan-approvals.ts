import { readErc20Allowance } from '@svc/chains';
import { type ExecutionCall } from '@svc/domain';
import { encodeFunctionData, erc20Abi, type Address, type Client, type Hex } from 'viem';
import { approvalNeeds, type ApprovalNeed } from './approval-needs';
import { approvalRefused } from './approval-refused';
import { type DraftCall } from './draft-call';

/**
 * The approvals a chain's slices still need, each to be placed at the start of the slice at its index: per
 * (token, spender) pair none when the wallet's allowance already covers what the slices pull, else exactly one
 * `approve(spender, that amount)` built here (never a provider's bytes, so never an unlimited allowance), preceded
 * by `approve(spender, 0)` when the token refuses to change a non-zero allowance.
 */
export async function planApprovals(
  client: Client,
  wallet: Address,
  slices: readonly { calls: readonly ExecutionCall[]; amount: bigint }[],
): Promise<DraftCall[][]> {
  const planned = await Promise.all(approvalNeeds(slices).map((need) => approvalCalls(client, wallet, need)));
  const bySlice = slices.map((): DraftCall[] => []);
  for (const { firstSlice, calls } of planned) bySlice[firstSlice].push(...calls);
  return bySlice;
}

/**
 * The approvals planApprovals builds when the wallet has no allowance for any pair (a first consolidation): exactly
 * one `approve(spender, total)` per pair, at its first slice, no reset. `needs` is approvalNeeds of the same slices.
 */
export function approvalsFromZero(needs: readonly ApprovalNeed[], sliceCount: number): DraftCall[][] {
  const bySlice = Array.from({ length: sliceCount }, (): DraftCall[] => []);
  for (const { token, spender, total, firstSlice } of needs)
    bySlice[firstSlice].push(builtApprove(token, spender, total));
  return bySlice;
}

async function approvalCalls(
  client: Client,
  wallet: Address,
  need: ApprovalNeed,
): Promise<{ firstSlice: number; calls: DraftCall[] }> {
  const { token, spender, total, firstSlice } = need;
  const allowance = await readErc20Allowance(client, { token, owner: wallet, spender });
  if (allowance >= total) return { firstSlice, calls: [] };
  const approval = builtApprove(token, spender, total);
  const reset =
    allowance > 0n &&
    (await approvalRefused(client, { wallet, token: approval.to as Address, data: approval.data as Hex }));
  return { firstSlice, calls: reset ? [builtApprove(token, spender, 0n), approval] : [approval] };
}

function builtApprove(token: Address, spender: Address, amount: bigint): DraftCall {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
  return { to: token, data, value: '0', gas: null, kind: 'approve' };
}
