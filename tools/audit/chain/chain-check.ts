import { ChainRpcError } from '@svc/chains';
/** What a transaction was read again for. */
export type TxRole = 'source' | 'fill' | 'transfer' | 'refund';

/** One recorded fact the chain contradicts: which transaction, which fact, what each side says. */
export interface ChainMismatch {
  chainId: number;
  txHash: string;
  role: TxRole;
  sliceId: string | null;
  fact: string;
  recorded: string;
  onChain: string;
}

/** One transaction read again: the facts it confirmed, or why it could not be checked. */
export interface TxCheck {
  chainId: number;
  txHash: string;
  role: TxRole;
  sliceId: string | null;
  /**
   * ok: the facts held; unverified: they cannot be read again (e.g. a past balance); unreachable: the chain could not
   * be read now (not in CHAINS_FILE, or the node did not answer: check again); info: a hash the service never
   * classified, and what the chain says of it.
   */
  outcome: 'ok' | 'mismatch' | 'unverified' | 'unreachable' | 'info';
  /** ok: the facts checked; otherwise why not, or what the chain says. */
  note: string;
  mismatches: ChainMismatch[];
}

/** Builds a TxCheck from the mismatches found (none: ok, with the facts that were checked). */
export function txCheck(
  tx: Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>,
  checked: string,
  mismatches: Omit<ChainMismatch, 'chainId' | 'txHash' | 'role' | 'sliceId'>[],
): TxCheck {
  return {
    ...tx,
    outcome: mismatches.length === 0 ? 'ok' : 'mismatch',
    note: checked,
    mismatches: mismatches.map((m) => ({ ...tx, ...m })),
  };
}

export function unverified(
  tx: Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>,
  why: string,
): TxCheck {
  return { ...tx, outcome: 'unverified', note: why, mismatches: [] };
}

/** Runs one transaction's check; a node that fails to answer leaves it unverified (never a mismatch). */
export async function guarded(
  tx: Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>,
  check: () => Promise<TxCheck>,
): Promise<TxCheck> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof ChainRpcError) return unreachable(tx, `the node did not answer: ${error.message}`);
    throw error;
  }
}

export function unreachable(
  tx: Pick<TxCheck, 'chainId' | 'txHash' | 'role' | 'sliceId'>,
  why: string,
): TxCheck {
  return { ...tx, outcome: 'unreachable', note: why, mismatches: [] };
}
