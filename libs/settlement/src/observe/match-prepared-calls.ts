import type { Address, Hex } from 'viem';

/** A prepared call as the partner received it (ChainCall): `value` in wei, as a decimal or 0x-hex string. */
export interface PreparedCall {
  callId: string;
  to: string;
  data: string;
  value: string | bigint;
}

/** A call as executed on chain: a transaction's own `to`/`value`/`input`, or one call of a batch. */
export interface ExecutedCall {
  /** Null for a contract creation, which no prepared call is. */
  to: Address | null;
  value: bigint;
  data: Hex;
}

/**
 * The callIds of the prepared calls that the executed calls are, in execution order, or null when any executed
 * call equals no prepared call (or there are none). Equal means the same `to` (case-insensitive), the same value and
 * the same calldata (case-insensitive hex). Each prepared call is used once, so a batch that repeats a call needs
 * it prepared twice; a single call identical to several prepared calls takes the first: pass only the calls not
 * confirmed yet to tell them apart.
 */
export function matchPreparedCalls(
  executed: readonly ExecutedCall[],
  prepared: readonly PreparedCall[],
): string[] | null {
  if (executed.length === 0) return null;
  const unused = [...prepared];
  const callIds: string[] = [];
  for (const call of executed) {
    const index = unused.findIndex((candidate) => isSameCall(call, candidate));
    if (index < 0) return null;
    callIds.push(unused[index].callId);
    unused.splice(index, 1);
  }
  return callIds;
}

function isSameCall(call: ExecutedCall, prepared: PreparedCall): boolean {
  return (
    call.to !== null &&
    call.to.toLowerCase() === prepared.to.toLowerCase() &&
    call.value === toWei(prepared.value) &&
    normalizeHex(call.data) === normalizeHex(prepared.data)
  );
}

function toWei(value: string | bigint): bigint | null {
  if (typeof value === 'bigint') return value;
  // BigInt('') is 0n: an empty or malformed value must not pass for zero.
  return /^(0x[0-9a-f]+|[0-9]+)$/i.test(value) ? BigInt(value) : null;
}

function normalizeHex(data: string): string {
  return data === '' ? '0x' : data.toLowerCase();
}

/** A prepared attempt as far as the ambiguity rule needs it: its id and, per chain, its prepared calls. */
export interface RivalCandidate {
  attemptId: string;
  /** The prepared calls of the transaction's chain (`calls ?? transactions` of its chain action). */
  preparedCalls: readonly PreparedCall[];
}

/**
 * The attempts other than `selfId` whose prepared calls the executed calls also are (ADR 0009, security review N-M6):
 * a transaction any of them could own is ambiguous, and the deposit search claims it for nobody. The candidates are
 * those that could own it at all (couldOwnSourceTransaction: open, on that chain, prepared before it was mined).
 */
export function rivalOwners(
  executed: readonly ExecutedCall[],
  selfId: string,
  candidates: readonly RivalCandidate[],
): string[] {
  return candidates
    .filter((c) => c.attemptId !== selfId && matchPreparedCalls(executed, c.preparedCalls) !== null)
    .map((c) => c.attemptId);
}
