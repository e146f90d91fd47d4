import { beginOutcome, type BeginRequest, type IdempotencyOutcome, type IdempotencyState } from '@svc/domain';

/**
 * The outcome of a BeginRequest the idempotency decider decided on `state`: it recorded something exactly when the
 * outcome is 'run'; when it recorded nothing, beginOutcome says why.
 */
export function decidedOutcome(
  command: BeginRequest,
  decision: { events: readonly unknown[]; state: IdempotencyState },
): IdempotencyOutcome {
  return decision.events.length > 0 ? { kind: 'run' } : beginOutcome(command, decision.state);
}
