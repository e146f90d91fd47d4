/**
 * The intent session's stored execution data is not what quoting writes (an approve call without its approval
 * details or with calldata that says otherwise, a call on another chain, a slice without a deposit, a source
 * index out of range). Nothing is built from it: these calls move the user's funds.
 */
export class InvalidQuotedExecutionError extends Error {
  override readonly name = 'InvalidQuotedExecutionError' as const;
}
