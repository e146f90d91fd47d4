import { withProviderFaults } from '../faults/with-provider-faults';
import { type RouteHandler, type SandboxRoute } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { relayErrors } from './relay-errors';
import { relayIntentStatusHandler } from './relay-intent-status.handler';
import { relayQuoteHandler } from './relay-quote.handler';
import { relayRequestsHandler } from './relay-requests.handler';

/** Relay's dialect under `/relay` (reference §1). */
export function relayRoutes(context: SandboxContext): SandboxRoute[] {
  const faulty = (endpoint: 'quote' | 'status', handler: RouteHandler) =>
    withProviderFaults({ faults: context.faults, provider: 'relay', endpoint, errors: relayErrors }, handler);
  return [
    { method: 'POST', pattern: '/relay/quote/v2', handle: faulty('quote', relayQuoteHandler(context)) },
    {
      method: 'GET',
      pattern: '/relay/intents/status/v3',
      handle: faulty('status', relayIntentStatusHandler(context)),
    },
    { method: 'GET', pattern: '/relay/requests/v3', handle: faulty('status', relayRequestsHandler(context)) },
  ];
}
