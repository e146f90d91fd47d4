import { withProviderFaults } from '../faults/with-provider-faults';
import { type RouteHandler, type SandboxRoute } from '../http/sandbox-http';
import { type SandboxContext } from '../sandbox-context';
import { mayanErrors } from './mayan-errors';
import { mayanQuoteHandler } from './mayan-quote.handler';
import { mayanSwapRouteHandler } from './mayan-swap-route.handler';
import { mayanOrderHandler, mayanSwapHandler } from './mayan-swap.handler';

/**
 * Mayan's two APIs: the price API under `/mayan-price` and the explorer under `/mayan-explorer`. The real
 * bases end in `/v3`; the paths are also served with it, so a base URL with or without `/v3` works. Quote faults
 * cover the price API's swap route too: a client asks it while building a quote.
 */
export function mayanRoutes(context: SandboxContext): SandboxRoute[] {
  const faulty = (endpoint: 'quote' | 'status', handler: RouteHandler) =>
    withProviderFaults({ faults: context.faults, provider: 'mayan', endpoint, errors: mayanErrors }, handler);
  const quote = faulty('quote', mayanQuoteHandler(context));
  const swapRoute = faulty('quote', mayanSwapRouteHandler(context));
  const swap = faulty('status', mayanSwapHandler(context));
  const order = faulty('status', mayanOrderHandler(context));
  return ['', '/v3'].flatMap((v): SandboxRoute[] => [
    { method: 'POST', pattern: `/mayan-price${v}/quote`, handle: quote },
    { method: 'GET', pattern: `/mayan-price${v}/quote`, handle: quote },
    { method: 'GET', pattern: `/mayan-price${v}/get-swap/evm`, handle: swapRoute },
    { method: 'GET', pattern: `/mayan-explorer${v}/swap/trx/:hash`, handle: swap },
    { method: 'GET', pattern: `/mayan-explorer${v}/swap/order-id/:orderId`, handle: order },
  ]);
}
