import { type ExecutionCall, type QuotedLegExecution, type QuotedSliceExecution } from '@svc/domain';
import { encodeFunctionData, erc20Abi, zeroAddress, zeroHash, type Address, type Hex } from 'viem';

/** MayanForwarder's entry points, the deposits the anvil tests execute (they pull with the allowance). */
const forwarderAbi = [
  {
    type: 'function',
    name: 'forwardERC20',
    stateMutability: 'payable',
    inputs: [
      { name: 'tokenIn', type: 'address' },
      { name: 'amountIn', type: 'uint256' },
      {
        name: 'permitParams',
        type: 'tuple',
        components: [
          { name: 'value', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
          { name: 'v', type: 'uint8' },
          { name: 'r', type: 'bytes32' },
          { name: 's', type: 'bytes32' },
        ],
      },
      { name: 'mayanProtocol', type: 'address' },
      { name: 'protocolData', type: 'bytes' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'forwardEth',
    stateMutability: 'payable',
    inputs: [
      { name: 'mayanProtocol', type: 'address' },
      { name: 'protocolData', type: 'bytes' },
    ],
    outputs: [],
  },
] as const;

/** Where the forwarder sends what it forwards: an account without code, so the protocol call always succeeds. */
export const PROTOCOL: Address = '0x000000000000000000000000000000000000da7a';

const NO_PERMIT = { value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash };

export function approveCall(
  chainId: number,
  token: Address,
  spender: Address,
  amount: bigint,
  gas: string | null = null,
): ExecutionCall {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] });
  return {
    chainId,
    to: token,
    data,
    value: '0',
    gas,
    kind: 'approve',
    approval: { token, spender, amount: amount.toString() },
  };
}

/** forwardERC20(token, amount): pulls `amount` of the token from the caller. */
export function tokenDeposit(
  chainId: number,
  forwarder: Address,
  token: Address,
  amount: bigint,
  gas: string | null = null,
): ExecutionCall {
  const data: Hex = encodeFunctionData({
    abi: forwarderAbi,
    functionName: 'forwardERC20',
    args: [token, amount, NO_PERMIT, PROTOCOL, '0x'],
  });
  return { chainId, to: forwarder, data, value: '0', gas, kind: 'deposit', approval: null };
}

/** forwardEth with the amount as value: passes it on to PROTOCOL. */
export function nativeDeposit(chainId: number, forwarder: Address, amount: bigint): ExecutionCall {
  const data = encodeFunctionData({ abi: forwarderAbi, functionName: 'forwardEth', args: [PROTOCOL, '0x'] });
  return {
    chainId,
    to: forwarder,
    data,
    value: amount.toString(),
    gas: null,
    kind: 'deposit',
    approval: null,
  };
}

export interface SliceSource {
  chainId: number;
  address: string;
  decimals: number;
}

export function quotedSlice(params: {
  sliceId: string;
  sourceIndex: number;
  source: SliceSource;
  amount: bigint;
  provider: string;
  calls: ExecutionCall[];
  expectedOutputRaw: bigint;
}): QuotedSliceExecution {
  const { source } = params;
  return {
    sliceId: params.sliceId,
    sourceIndex: params.sourceIndex,
    provider: params.provider,
    calls: params.calls,
    providerRequestId: null,
    trackingContext: {},
    expectedOutputRaw: params.expectedOutputRaw.toString(),
    minimumOutputRaw: params.expectedOutputRaw.toString(),
    validUntil: null,
    quotedWith: {
      sliceId: params.sliceId,
      wallet: zeroAddress,
      recipient: zeroAddress,
      refundTo: zeroAddress,
      source: {
        chainId: source.chainId,
        token: source.address,
        amount: params.amount.toString(),
        decimals: source.decimals,
      },
      target: { chainId: 8453, token: zeroAddress, decimals: 6 },
      slippageBps: 50,
      appFeeBps: 0,
      appFeeRecipient: null,
    },
  };
}

export function quotedLeg(
  targetId: string,
  provider: string,
  slices: QuotedSliceExecution[],
  noopSlices: QuotedLegExecution['noopSlices'] = [],
): QuotedLegExecution {
  return { targetId, provider, slices, noopSlices };
}

export const CHAIN_NAMES: Record<number, string> = { 1: 'ethereum', 8453: 'base', 42161: 'arbitrum' };
