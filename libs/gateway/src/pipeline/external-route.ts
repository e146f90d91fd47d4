import {
  type PartnerRequestPolicy,
  type ValidationResult,
  validateAttemptSearchRequest,
  validatePrepareRequest,
  validateQuoteRequest,
  validateSubmittedRequest,
  validateWebhookRecoverRequest,
} from '@svc/contract';
import { type BusBody, MessagePattern, type MessagePatternName, type ProbedPattern } from '@svc/messaging';

/** Checks a parsed body (undefined when there is none) against the partner's policy. */
type Validator<TBody> = (body: unknown, policy: PartnerRequestPolicy) => ValidationResult<TBody>;

interface RouteBase {
  name: string;
  method: 'GET' | 'POST';
  /** Express notation, relative to API_PREFIX: the controller routes by it, 404/405 and metrics match it. */
  path: string;
}

/** An endpoint the gateway answers itself. */
export interface LocalRoute extends RouteBase {
  pattern: null;
}

/** An endpoint a feature answers over the bus: the body validated here is the body its pattern declares. */
export interface BusRoute<P extends MessagePatternName = MessagePatternName> extends RouteBase {
  pattern: P;
  validate: Validator<BusBody<P>>;
  /**
   * The resource's own checks answer before body validation (prepare: an unknown or expired session is reported
   * before a bad callbackUrl). The feature is asked read-only (a PreconditionProbe), so only a pattern whose
   * contract answers one may set it; nothing is recorded for the rejected request.
   */
  resourceChecksFirst: P extends ProbedPattern ? boolean : false;
  /**
   * A POST that only reads (a search whose filters travel in the signed body): it still needs an Idempotency-Key,
   * but nothing is recorded under it, so the same key and body simply read again.
   */
  readOnly?: true;
}

export type ExternalRoute = LocalRoute | { [P in MessagePatternName]: BusRoute<P> }[MessagePatternName];

/** A GET has no body (a GET carrying one was refused earlier): the feature receives null. */
const noBody: Validator<null> = () => ({ ok: true, value: null });

/** A POST whose operation is all in its path: no body, or `{}`. */
const emptyObject: Validator<null> = (body) => {
  if (body === undefined) return { ok: true, value: null };
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return {
      ok: false,
      errors: [
        { code: 'invalid_request_body', field: '', message: 'The request body must be a JSON object' },
      ],
    };
  const [field] = Object.keys(body);
  return field === undefined
    ? { ok: true, value: null }
    : {
        ok: false,
        errors: [{ code: 'unknown_field', field, message: `${field} is not a field of this request` }],
      };
};

/**
 * The partner API, declared once: the controller's decorators, the pipeline, and the 404/405 and metrics route
 * table all read it.
 */
export const ROUTES = {
  ping: { name: 'ping', method: 'GET', path: '/ping', pattern: null },
  quote: {
    name: 'quote',
    method: 'POST',
    path: '/intents/quote',
    pattern: MessagePattern.quote,
    validate: validateQuoteRequest,
    resourceChecksFirst: false,
  },
  prepare: {
    name: 'prepare',
    method: 'POST',
    path: '/intents/:intentSessionId/prepare',
    pattern: MessagePattern.prepare,
    validate: validatePrepareRequest,
    resourceChecksFirst: true,
  },
  submitted: {
    name: 'submitted',
    method: 'POST',
    path: '/attempts/:attemptId/submitted',
    pattern: MessagePattern.submit,
    validate: validateSubmittedRequest,
    resourceChecksFirst: false,
  },
  status: {
    name: 'status',
    method: 'GET',
    path: '/attempts/:attemptId/status',
    pattern: MessagePattern.status,
    validate: noBody,
    resourceChecksFirst: false,
  },
  searchAttempts: {
    name: 'searchAttempts',
    method: 'POST',
    path: '/attempts/search',
    pattern: MessagePattern.searchAttempts,
    validate: validateAttemptSearchRequest,
    resourceChecksFirst: false,
    readOnly: true,
  },
  transactionAttempt: {
    name: 'transactionAttempt',
    method: 'GET',
    path: '/transactions/:chainId/:txHash/attempt',
    pattern: MessagePattern.transactionAttempt,
    validate: noBody,
    resourceChecksFirst: false,
  },
  webhookEvents: {
    name: 'webhookEvents',
    method: 'GET',
    path: '/webhooks/events',
    pattern: MessagePattern.webhookEvents,
    validate: noBody,
    resourceChecksFirst: false,
  },
  webhookEventsAfter: {
    name: 'webhookEventsAfter',
    method: 'GET',
    path: '/webhooks/events/after/:cursor',
    pattern: MessagePattern.webhookEvents,
    validate: noBody,
    resourceChecksFirst: false,
  },
  webhookRedeliver: {
    name: 'webhookRedeliver',
    method: 'POST',
    path: '/webhooks/redeliver/:eventId',
    pattern: MessagePattern.webhookRedeliver,
    validate: emptyObject,
    resourceChecksFirst: false,
  },
  webhookRecover: {
    name: 'webhookRecover',
    method: 'POST',
    path: '/webhooks/recover',
    pattern: MessagePattern.webhookRecover,
    validate: validateWebhookRecoverRequest,
    resourceChecksFirst: false,
  },
  /** Server-Sent Events: the gateway serves it itself, from the event store (AttemptEventStreams). */
  attemptEvents: { name: 'attemptEvents', method: 'GET', path: '/attempts/:attemptId/events', pattern: null },
} as const satisfies Record<string, ExternalRoute>;

/** The pattern to probe before reporting a bad body, or null when the route's body is checked first. */
export function probedPatternOf(route: BusRoute): ProbedPattern | null {
  // The route type allows `resourceChecksFirst` only on a probed pattern.
  return route.resourceChecksFirst ? (route.pattern as ProbedPattern) : null;
}
