import { encodeFunctionData, type Address, type Hex } from 'viem';
import { RelayDepositoryArtifact } from '../contracts/artifacts';
import { type ComputedQuote } from '../pricing/compute-quote';
import { approvalCalls } from '../rpc/approval-calls';
import { type SandboxPublicClient } from '../rpc/chain-clients';
import { isNative } from '../tokens/token-directory';

export interface RelayStep {
  id: 'approve' | 'deposit';
  action: string;
  description: string;
  kind: 'transaction';
  requestId: Hex;
  items: {
    status: 'incomplete';
    data: {
      from: Address;
      to: Address;
      data: Hex;
      value: string;
      chainId: number;
      maxFeePerGas: string;
      maxPriorityFeePerGas: string;
    };
    check?: { endpoint: string; method: 'GET' };
  }[];
}

/**
 * The `approve` step (only when the user's allowance to the depository is short) and the `deposit` step
 * calling the sandbox RelayDepository, tagged with the request id the filler will look up.
 */
export async function relaySteps(
  client: SandboxPublicClient,
  params: {
    quote: ComputedQuote;
    user: Address;
    depository: Address;
    requestId: Hex;
    fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
  },
): Promise<RelayStep[]> {
  const { quote, user, depository, requestId } = params;
  const chainId = quote.tokenIn.chainId;
  const token = quote.tokenIn.address as Address;
  const gasFields = {
    maxFeePerGas: params.fees.maxFeePerGas.toString(),
    maxPriorityFeePerGas: params.fees.maxPriorityFeePerGas.toString(),
  };
  const native = isNative(token);
  const { calls: approvals } = native
    ? { calls: [] }
    : await approvalCalls(client, {
        token,
        symbol: quote.tokenIn.symbol,
        owner: user,
        spender: depository,
        amount: quote.amountIn,
        approveAmount: quote.amountIn,
      });
  const depositData = native
    ? encodeFunctionData({
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositNative',
        args: [user, requestId],
      })
    : encodeFunctionData({
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositErc20',
        args: [user, token, quote.amountIn, requestId],
      });
  const steps: RelayStep[] = [];
  if (approvals.length > 0) {
    steps.push({
      id: 'approve',
      action: 'Confirm transaction in your wallet',
      description: `Sign an approval for ${quote.tokenIn.symbol}`,
      kind: 'transaction',
      requestId,
      items: approvals.map((call) => ({
        status: 'incomplete',
        data: { from: user, to: call.to, data: call.data, value: '0', chainId, ...gasFields },
      })),
    });
  }
  steps.push({
    id: 'deposit',
    action: 'Confirm transaction in your wallet',
    description: 'Depositing funds to the relayer to execute the swap',
    kind: 'transaction',
    requestId,
    items: [
      {
        status: 'incomplete',
        data: {
          from: user,
          to: depository,
          data: depositData,
          value: native ? quote.amountIn.toString() : '0',
          chainId,
          ...gasFields,
        },
        check: { endpoint: `/intents/status/v3?requestId=${requestId}`, method: 'GET' },
      },
    ],
  });
  return steps;
}
