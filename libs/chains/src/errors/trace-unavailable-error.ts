/** The node does not serve `debug_traceTransaction` with the callTracer, and the caller required a trace. */
export class TraceUnavailableError extends Error {
  override readonly name = 'TraceUnavailableError' as const;

  constructor(readonly chainId: number | undefined) {
    super(`chain ${chainId ?? '?'}: the node does not support debug_traceTransaction (callTracer)`);
  }
}
