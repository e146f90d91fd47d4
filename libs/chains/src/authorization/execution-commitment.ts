import { type ChainAction, type ChainCall } from '@svc/contract';
import { type Address, type Hex, encodeAbiParameters, isAddress, isHex, keccak256, maxUint256 } from 'viem';
import { ExecutionCommitmentError } from './execution-commitment.error';

/** The ABI type every call is encoded as; documented for partners in docs/execution-commitment.md. */
const EXECUTION_COMMITMENT_ABI = [
  {
    type: 'tuple[]',
    components: [
      { name: 'chainId', type: 'uint256' },
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
  },
] as const;

interface CommittedCall {
  chainId: bigint;
  to: Address;
  value: bigint;
  data: Hex;
}

/**
 * `keccak256(abi.encode((uint256 chainId, address to, uint256 value, bytes data)[]))` over every call handed out:
 * chain actions in array order, within each the calls in callIndex order. The wallet signs this hash, so the
 * authorization holds only for exactly these calls on exactly these chains.
 */
export function executionCommitment(chainActions: ChainAction[]): Hex {
  return keccak256(encodeAbiParameters(EXECUTION_COMMITMENT_ABI, [committedCalls(chainActions)]));
}

/** The calls in commitment order, each normalized to the values the ABI encoding takes. */
function committedCalls(chainActions: ChainAction[]): CommittedCall[] {
  return chainActions.flatMap((action, actionIndex) => {
    const where = `chainActions[${actionIndex}]`;
    if (!Number.isSafeInteger(action.chainId) || action.chainId <= 0) {
      throw new ExecutionCommitmentError(`${where}.chainId must be a positive integer`);
    }
    return inCallIndexOrder(callsOf(action, where), where).map((call) => ({
      chainId: BigInt(action.chainId),
      to: address(call.to, `${where} call ${call.callIndex}`),
      value: value(call.value, `${where} call ${call.callIndex}`),
      data: data(call.data, `${where} call ${call.callIndex}`),
    }));
  });
}

function callsOf(action: ChainAction, where: string): ChainCall[] {
  switch (action.submitMethod) {
    case 'wallet_sendCalls':
      if (!action.calls) throw new ExecutionCommitmentError(`${where}: wallet_sendCalls without calls`);
      return action.calls;
    case 'sendTransaction':
      if (!action.transactions) {
        throw new ExecutionCommitmentError(`${where}: sendTransaction without transactions`);
      }
      for (const tx of action.transactions) {
        // The tuple takes the action's chain: a transaction claiming another chain would be signed for the wrong one.
        if (tx.chainId !== action.chainId) {
          throw new ExecutionCommitmentError(
            `${where}: transaction ${tx.callIndex} is on chain ${tx.chainId}`,
          );
        }
      }
      return action.transactions;
  }
}

function inCallIndexOrder(calls: ChainCall[], where: string): ChainCall[] {
  const sorted = [...calls].sort((a, b) => a.callIndex - b.callIndex);
  sorted.forEach((call, i) => {
    if (!Number.isSafeInteger(call.callIndex) || call.callIndex < 0) {
      throw new ExecutionCommitmentError(
        `${where}: callIndex ${call.callIndex} is not a non-negative integer`,
      );
    }
    // Two calls with one index would leave their order, and so the hash, to the array order.
    if (i > 0 && sorted[i - 1].callIndex === call.callIndex) {
      throw new ExecutionCommitmentError(`${where}: callIndex ${call.callIndex} appears twice`);
    }
  });
  return sorted;
}

function address(to: string, where: string): Address {
  // Any case is the same address; lowercase skips viem's checksum check, which would reject a bad mixed case.
  if (!isAddress(to, { strict: false })) throw new ExecutionCommitmentError(`${where}: to is not an address`);
  return to.toLowerCase() as Address;
}

function value(raw: string, where: string): bigint {
  if (!/^\d+$/.test(raw)) throw new ExecutionCommitmentError(`${where}: value is not a base-10 integer`);
  const parsed = BigInt(raw);
  if (parsed > maxUint256) throw new ExecutionCommitmentError(`${where}: value exceeds uint256`);
  return parsed;
}

function data(raw: string, where: string): Hex {
  if (!isHex(raw, { strict: true }) || raw.length % 2 !== 0) {
    throw new ExecutionCommitmentError(`${where}: data is not 0x-prefixed whole bytes`);
  }
  return raw;
}
