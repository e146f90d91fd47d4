import { withProviderFaults } from '../faults/with-provider-faults';
import { type RouteHandler, type SandboxRoute } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { acrossApprovalHandler } from './across-approval.handler';
import { acrossDepositStatusHandler } from './across-deposit-status.handler';
import { acrossDepositHandler } from './across-deposit.handler';
import { acrossErrors } from './across-errors';

/** Across's dialect under `/across` (reference §2), the indexer's `/deposit*` paths included. */
export function acrossRoutes(context: SandboxContext): SandboxRoute[] {
  const faulty = (endpoint: 'quote' | 'status', handler: RouteHandler) =>
    withProviderFaults(
      { faults: context.faults, provider: 'across', endpoint, errors: acrossErrors },
      handler,
    );
  return [
    {
      method: 'GET',
      pattern: '/across/swap/approval',
      handle: faulty('quote', acrossApprovalHandler(context)),
    },
    {
      method: 'GET',
      pattern: '/across/deposit/status',
      handle: faulty('status', acrossDepositStatusHandler(context)),
    },
    { method: 'GET', pattern: '/across/deposit', handle: faulty('status', acrossDepositHandler(context)) },
  ];
}
