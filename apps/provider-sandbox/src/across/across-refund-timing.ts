/**
 * Across's fill deadline and refund path, in chain time (issue 24 S14), as the real service runs them:
 * - `fillDeadline` = the quote timestamp + 2 h (across-protocol/frontend api/_fill-deadline.ts `getFillDeadline`,
 *   api/_constants.ts DEFAULT_FILL_DEADLINE_BUFFER_SECONDS);
 * - past it the deposit reads `expired` (the destination SpokePool refuses the fill) and "the Across Dataworker
 *   includes the expired deposit in the next settlement bundle. Bundles are proposed to the HubPool every ~1.5
 *   hours and must pass a challenge period via UMA's Optimistic Oracle" (docs.across.to /introduction/refunds), 2 h
 *   by default (across-protocol/contracts contracts/hub-pool/HubPool.sol `liveness = 7200`). The sandbox pays the
 *   refund once the origin chain is a bundle interval and a challenge period past the deadline.
 * Nothing is compressed: the time passes on the chains, which a test moves by anvil time travel.
 */
export const ACROSS_FILL_DEADLINE_BUFFER_SECONDS = 2 * 3600;
/** The next bundle (~1.5 h) plus its challenge period (2 h). */
export const ACROSS_REFUND_AFTER_EXPIRY_SECONDS = 1.5 * 3600 + 2 * 3600;
