import { type ChainClient } from '@svc/chains';
import {
  concatHex,
  encodeAbiParameters,
  type Hex,
  numberToHex,
  serializeTransaction,
  toFunctionSelector,
} from 'viem';
import { GAS_PRICE_ORACLE, GET_L1_FEE_ABI } from './op-stack-l1-fee';

export interface SimulatedCall {
  to: string;
  data: string;
  value: string;
}

export interface SimulatedChain {
  calls: CallGas[];
  /** The `reads` answers (ABI-encoded), null where a read failed or the simulation did not run. */
  reads: (Hex | null)[];
}

export interface CallGas {
  /** null: the call reverted or the node could not simulate it. */
  gasUsed: bigint | null;
  /** null when the chain charges none (or the oracle could not be read). */
  l1DataFee: bigint | null;
}

/** getL1Fee(bytes)'s selector, hashed once: encodeFunctionData would hash the signature again for every call. */
const GET_L1_FEE_SELECTOR = toFunctionSelector(GET_L1_FEE_ABI[0]);

interface SimulatedBlock {
  calls: { status: string; gasUsed: string; returnData: string }[];
}

/**
 * Runs one chain's calls as the wallet will send them, in order, in one eth_simulateV1 request (validation off, so no
 * fee or nonce checks), and reads each call's gas used. On an OP-stack chain a second simulated block asks the
 * GasPriceOracle for each call's L1 data fee, serialised as the wallet's EIP-1559 transaction (gas from
 * `gasGuess`, nonce 0: a byte or two off the signed bytes; docs/source-economics.md states the bound). A node
 * without eth_simulateV1 (or any failure) gives nulls for every call: the caller falls back to per-call estimates.
 */
export async function simulateChainCalls(
  client: ChainClient,
  params: {
    chainId: number;
    wallet: string;
    calls: readonly SimulatedCall[];
    gasGuess: (index: number) => bigint;
    l1DataFee: boolean;
    maxFeePerGas: bigint;
    maxPriorityFeePerGas: bigint;
    /** Calls read in a block before the wallet's (state they see is the chain's), e.g. its allowances. */
    reads?: readonly { to: string; data: Hex }[];
  },
): Promise<SimulatedChain> {
  const reads = params.reads ?? [];
  const blocks: { calls: Record<string, string>[] }[] = [
    ...(reads.length > 0
      ? [{ calls: reads.map((read) => ({ from: params.wallet, to: read.to, input: read.data })) }]
      : []),
    {
      calls: params.calls.map((call) => ({
        from: params.wallet,
        to: call.to,
        input: call.data,
        value: numberToHex(BigInt(call.value)),
      })),
    },
  ];
  if (params.l1DataFee) {
    blocks.push({
      calls: params.calls.map((call, i) => ({
        to: GAS_PRICE_ORACLE,
        input: concatHex([
          GET_L1_FEE_SELECTOR,
          encodeAbiParameters(GET_L1_FEE_ABI[0].inputs, [
            unsignedTransaction(params, call, params.gasGuess(i)),
          ]),
        ]),
      })),
    });
  }
  let result: SimulatedBlock[];
  try {
    // Not in viem's public-client schema (viem's own simulateCalls wraps it with ABI decoding we do not need).
    const request = client.request as unknown as (args: {
      method: string;
      params: unknown[];
    }) => Promise<unknown>;
    result = (await request({
      method: 'eth_simulateV1',
      params: [{ blockStateCalls: blocks, validation: false }, 'latest'],
    })) as SimulatedBlock[];
  } catch {
    return {
      calls: params.calls.map(() => ({ gasUsed: null, l1DataFee: null })),
      reads: reads.map(() => null),
    };
  }
  const first = reads.length > 0 ? 1 : 0;
  return {
    calls: params.calls.map((_, i) => {
      const run = result[first]?.calls[i];
      const fee = params.l1DataFee ? result[first + 1]?.calls[i] : undefined;
      return {
        gasUsed: run && run.status === '0x1' ? BigInt(run.gasUsed) : null,
        l1DataFee: fee && fee.status === '0x1' && fee.returnData.length > 2 ? BigInt(fee.returnData) : null,
      };
    }),
    reads: reads.map((_, i) => {
      const read = result[0]?.calls[i];
      return read && read.status === '0x1' ? (read.returnData as Hex) : null;
    }),
  };
}

function unsignedTransaction(
  params: { chainId: number; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  call: SimulatedCall,
  gas: bigint,
): Hex {
  return serializeTransaction({
    type: 'eip1559',
    chainId: params.chainId,
    nonce: 0,
    gas,
    maxFeePerGas: params.maxFeePerGas,
    maxPriorityFeePerGas: params.maxPriorityFeePerGas,
    to: call.to as Hex,
    value: BigInt(call.value),
    data: call.data as Hex,
  });
}
