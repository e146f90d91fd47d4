import { type EndpointTryOutcome } from './endpoint-breaker.commands';
import { type DeliveryResult } from './webhook-delivery.commands';

/**
 * What a try says about the endpoint itself: no answer (time-out, connection error), a 5xx or a 429 mean it is not
 * available; any other answer, a refusal or a redirect included, means it is up and deciding for itself.
 */
export function endpointTryOutcome(result: DeliveryResult): EndpointTryOutcome {
  if (result.kind !== 'failure') return 'answered';
  const { status } = result;
  return status === null || status >= 500 || status === 429 ? 'unavailable' : 'answered';
}
