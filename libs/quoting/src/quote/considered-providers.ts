import { type ProviderName } from '@svc/contract';
import { PROVIDER_ORDER } from '../quoting.options';

/**
 * The request's allowedProviders (all when omitted; [] means none) ∩ the partner's ∩ the providers that can route
 * externally (relay, across, mayan: symbiosis and fly never do), in provider order.
 */
export function consideredProviders(
  requested: readonly ProviderName[] | undefined,
  partnerAllowed: readonly ProviderName[],
): ProviderName[] {
  return PROVIDER_ORDER.filter(
    (p) => (requested === undefined || requested.includes(p)) && partnerAllowed.includes(p),
  );
}
