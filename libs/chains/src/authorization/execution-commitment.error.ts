/**
 * The chain actions cannot be committed to as handed out (a call list missing for its submit method, a value that
 * is not base-10, a malformed address or calldata, a repeated callIndex). The actions are built by us, so this is a
 * programming error: no authorization may be issued over calls we cannot encode unambiguously.
 */
export class ExecutionCommitmentError extends Error {
  override readonly name = 'ExecutionCommitmentError';
}
