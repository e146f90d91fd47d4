import {
  type Address,
  decodeAbiParameters,
  decodeFunctionData,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  parseAbi,
} from 'viem';
import { isNative } from '../tokens/token-directory';

/**
 * The MulticallHandler `message` the Swap API puts on a deposit that carries an app fee, and its reading back.
 * Across: `abi.encode((Call[] calls, address fallbackRecipient))`, `Call = (target, callData, value)`; the calls
 * pay the fee (an ERC-20 `transfer` on the output token, or a plain value call for native output: calculateAppFee)
 * and then drain what is left to the recipient (`drainLeftoverTokens`), the deposit naming the handler as its
 * recipient (across-protocol/frontend api/_multicall-handler.ts, api/_dexes/utils.ts
 * buildExactInputBridgeTokenMessage, extractDepositDataStruct).
 *
 * Sandbox simplifications: there is no MulticallHandler contract, so `handler` (the drains' target) is only a
 * label and the deposit keeps the real recipient; the filler carries out the fee call itself.
 */
const INSTRUCTIONS = [
  {
    type: 'tuple',
    components: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'callData', type: 'bytes' },
          { name: 'value', type: 'uint256' },
        ],
      },
      { name: 'fallbackRecipient', type: 'address' },
    ],
  },
] as const;

const DRAIN_ABI = parseAbi(['function drainLeftoverTokens(address token, address destination)']);

export function encodeAppFeeMessage(params: {
  handler: Address;
  outputToken: Address;
  recipient: Address;
  feeRecipient: Address;
  fee: bigint;
  /** `refundAddress ?? depositor`, or the zero address under refundOnOrigin (getAcrossFallbackRecipient). */
  fallbackRecipient: Address;
}): Hex {
  const feeCall = isNative(params.outputToken)
    ? { target: params.feeRecipient, callData: '0x' as Hex, value: params.fee }
    : {
        target: params.outputToken,
        callData: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [params.feeRecipient, params.fee],
        }),
        value: 0n,
      };
  const drain = {
    target: params.handler,
    callData: encodeFunctionData({
      abi: DRAIN_ABI,
      functionName: 'drainLeftoverTokens',
      args: [params.outputToken, params.recipient],
    }),
    value: 0n,
  };
  return encodeAbiParameters(INSTRUCTIONS, [
    { calls: [feeCall, drain], fallbackRecipient: params.fallbackRecipient },
  ]);
}

/** The fee calls of a message as `encodeAppFeeMessage` writes it; null for `0x` or anything else. */
export function appFeeOfMessage(message: Hex, outputToken: Address): { to: Address; amount: bigint } | null {
  if (message === '0x') return null;
  try {
    const [{ calls }] = decodeAbiParameters(INSTRUCTIONS, message);
    const [fee] = calls;
    if (!fee) return null;
    if (fee.callData === '0x') return fee.value > 0n ? { to: fee.target, amount: fee.value } : null;
    if (fee.target.toLowerCase() !== outputToken.toLowerCase()) return null;
    const { functionName, args } = decodeFunctionData({ abi: erc20Abi, data: fee.callData });
    return functionName === 'transfer' ? { to: args[0], amount: args[1] } : null;
  } catch {
    return null;
  }
}
