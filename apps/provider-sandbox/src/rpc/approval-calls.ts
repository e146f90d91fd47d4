import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { type SandboxPublicClient } from './chain-clients';

export interface ApprovalCall {
  to: Address;
  data: Hex;
}

/**
 * The approvals a depositor still needs, judged from the on-chain allowance as the real APIs do: none when
 * it covers `amount`; USDT refuses to move a non-zero allowance to another non-zero value, so it gets an
 * `approve(0)` first.
 */
export async function approvalCalls(
  client: SandboxPublicClient,
  params: {
    token: Address;
    symbol: string;
    owner: Address;
    spender: Address;
    amount: bigint;
    approveAmount: bigint;
  },
): Promise<{ allowance: bigint; calls: ApprovalCall[] }> {
  const { token, owner, spender } = params;
  const allowance = await client.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'allowance',
    args: [owner, spender],
  });
  if (allowance >= params.amount) return { allowance, calls: [] };
  const approve = (value: bigint): ApprovalCall => ({
    to: token,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, value] }),
  });
  const calls =
    params.symbol === 'USDT' && allowance > 0n
      ? [approve(0n), approve(params.approveAmount)]
      : [approve(params.approveAmount)];
  return { allowance, calls };
}
