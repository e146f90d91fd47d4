/** The windows an attempt is prepared with (ExecutionOptions), in seconds. */
export interface AttemptWindows {
  /** Until when it makes sense to start signing (the spec's 30 s signable window). */
  signableSeconds: number;
  /** Initial evidence must arrive within this (about 15 minutes). */
  evidenceWindowSeconds: number;
  /** The wallet authorization's own validity (`message.expiresAt`). */
  authorizationTtlSeconds: number;
}

export interface AttemptDeadlines {
  /** Epoch ms. */
  expiresAt: number;
  /** Epoch ms: the evidence window, never past a provider's own deadline for a quote the attempt executes. */
  evidenceDeadlineAt: number;
  /** Unix seconds, as the authorization's `message.expiresAt` carries it. */
  authorizationExpiresAt: number;
}

/**
 * The deadlines of an attempt prepared at `now` (epoch ms): a provider whose quote or order stops holding earlier
 * (across `quoteExpiryTimestamp`, mayan's order `deadline64`) shortens the evidence window, since a deposit after it
 * cannot be filled as quoted.
 */
export function attemptDeadlines(
  now: number,
  windows: AttemptWindows,
  providerDeadlines: readonly (number | null)[],
): AttemptDeadlines {
  const known = providerDeadlines.filter((d): d is number => d !== null);
  return {
    expiresAt: now + windows.signableSeconds * 1000,
    evidenceDeadlineAt: Math.min(now + windows.evidenceWindowSeconds * 1000, ...known),
    authorizationExpiresAt: Math.floor(now / 1000) + windows.authorizationTtlSeconds,
  };
}
