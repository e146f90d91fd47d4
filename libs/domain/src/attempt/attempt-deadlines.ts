/** The windows an attempt is prepared with (ExecutionOptions), in seconds. */
export interface AttemptWindows {
  /** Until when it makes sense to start signing (the spec's 30 s signable window). */
  signableSeconds: number;
  /**
   * What a wallet that signs at the very end of the signable window needs to send its transactions, have them
   * included and report them: evidence is never due before the signable window plus this.
   */
  executionSeconds: number;
  /** Initial evidence must arrive within this (about 15 minutes). */
  evidenceWindowSeconds: number;
  /** The wallet authorization's own validity (`message.expiresAt`). */
  authorizationTtlSeconds: number;
}

export interface AttemptDeadlines {
  /** Epoch ms. */
  expiresAt: number;
  /**
   * Epoch ms: the evidence window, never past a provider's own deadline for a quote the attempt executes, and never
   * before `expiresAt` plus the execution time.
   */
  evidenceDeadlineAt: number;
  /** Unix seconds, as the authorization's `message.expiresAt` carries it. */
  authorizationExpiresAt: number;
}

/**
 * The earliest a provider's deadline for a quote an attempt prepared at `now` executes may fall (epoch ms): the end
 * of the signable window plus the execution time. A quote that stops holding sooner would refuse the deposit of a
 * wallet that signs inside the window, so prepare quotes it again or refuses it (409 quote_changed).
 */
export function providerDeadlineFloor(now: number, windows: AttemptWindows): number {
  return now + (windows.signableSeconds + windows.executionSeconds) * 1000;
}

/**
 * The deadlines of an attempt prepared at `now` (epoch ms): a provider whose quote or order stops holding earlier
 * (across `quoteExpiryTimestamp`, mayan's order `deadline64`) shortens the evidence window, since a deposit after it
 * cannot be filled as quoted. Evidence is never due before the end of the signable window plus the execution time:
 * a provider deadline before that is a bug of the caller (prepare re-quotes or refuses such a slice first), and an
 * evidence window shorter than that is stretched to it.
 */
export function attemptDeadlines(
  now: number,
  windows: AttemptWindows,
  providerDeadlines: readonly (number | null)[],
): AttemptDeadlines {
  const floor = providerDeadlineFloor(now, windows);
  const known = providerDeadlines.filter((d): d is number => d !== null);
  const short = known.filter((d) => d < floor);
  if (short.length > 0)
    throw new Error(
      `provider deadline ${new Date(Math.min(...short)).toISOString()} falls before the signable window plus execution time (${new Date(floor).toISOString()})`,
    );
  return {
    expiresAt: now + windows.signableSeconds * 1000,
    evidenceDeadlineAt: Math.min(Math.max(now + windows.evidenceWindowSeconds * 1000, floor), ...known),
    authorizationExpiresAt: Math.floor(now / 1000) + windows.authorizationTtlSeconds,
  };
}
