import { type AttemptEvent } from './attempt.events';
import { type AttemptCommand } from './attempt.commands';
import { AttemptRefusedError } from './attempt-refused.error';
import { type AttemptState } from './attempt-record';
import { checkDeadlines } from './check-deadlines';
import { confirmLeg, recheckSettledLeg } from './confirm-leg';
import { markLegDelayed } from './mark-leg-delayed';
import { observeLeg } from './observe-leg';
import { observeSourceTransaction } from './observe-source-transaction';
import { reportEvidence } from './report-evidence';

/**
 * The attempt decider: the events a command appends to `attempt-<attemptId>` ([] when it changes nothing).
 * Refusals throw AttemptRefusedError; input the prepared attempt cannot hold throws AttemptInputError.
 */
export function decideAttempt(command: AttemptCommand, state: AttemptState): AttemptEvent[] {
  if (state.status === 'none') throw new AttemptRefusedError('attempt_not_found', 'no such attempt');
  switch (command.type) {
    case 'ReportEvidence':
      return reportEvidence(state, command.data);
    case 'ObserveSourceTransaction':
      return observeSourceTransaction(state, command.data);
    case 'ObserveLeg':
      return observeLeg(state, command.data);
    case 'MarkLegDelayed':
      return markLegDelayed(state, command.data);
    case 'CheckDeadlines':
      return checkDeadlines(state, command.data);
    case 'ConfirmLeg':
      return confirmLeg(state, command.data);
    case 'RecheckSettledLeg':
      return recheckSettledLeg(state, command.data);
  }
}
