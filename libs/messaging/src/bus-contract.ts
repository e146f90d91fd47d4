import {
  type AttemptSearchQuery,
  type AttemptSearchResponse,
  type PrepareRequest,
  type PrepareResponse,
  type QuoteRequest,
  type QuoteResponse,
  type StatusResponse,
  type SubmittedRequest,
  type SubmittedResponse,
  type TransactionAttemptResponse,
  type WebhookEventsResponse,
  type WebhookRecoverRange,
  type WebhookRecoverResponse,
  type WebhookRedeliverResponse,
} from '@svc/contract';
import { type FeatureReply, type FeatureRequest, type PreconditionProbe } from './envelopes';
import { type Exchange } from './message-bus.port';
import { type MessagePattern, type MessagePatternName } from './patterns';

/** A response body as a feature answers it: the gateway adds apiVersion. */
type Unversioned<TResponse> = Omit<TResponse, 'apiVersion'>;

/**
 * Every request/reply pattern on the bus with the body the gateway sends (in a FeatureRequest) and the body the
 * feature answers (in a FeatureReply). `MessageBus.request` and `@OnBusRequest` are typed from this table alone,
 * so a sender and a handler of one pattern cannot disagree; a pattern without an entry does not compile.
 * `resourceChecksFirst`: the pattern also answers a PreconditionProbe.
 */
export interface BusContract {
  [MessagePattern.quote]: { body: QuoteRequest; reply: Unversioned<QuoteResponse> };
  [MessagePattern.prepare]: {
    body: PrepareRequest;
    reply: Unversioned<PrepareResponse>;
    resourceChecksFirst: true;
  };
  [MessagePattern.submit]: { body: SubmittedRequest; reply: Unversioned<SubmittedResponse> };
  [MessagePattern.status]: { body: null; reply: Unversioned<StatusResponse> };
  [MessagePattern.searchAttempts]: { body: AttemptSearchQuery; reply: Unversioned<AttemptSearchResponse> };
  /** resourceId: `<chainId>/<txHash>` as the path named them (checked by the feature). */
  [MessagePattern.transactionAttempt]: { body: null; reply: Unversioned<TransactionAttemptResponse> };
  /** resourceId: the cursor of the path (null for the first page), checked by the feature. */
  [MessagePattern.webhookEvents]: { body: null; reply: Unversioned<WebhookEventsResponse> };
  /** resourceId: the eventId. */
  [MessagePattern.webhookRedeliver]: { body: null; reply: Unversioned<WebhookRedeliverResponse> };
  [MessagePattern.webhookRecover]: { body: WebhookRecoverRange; reply: Unversioned<WebhookRecoverResponse> };
}

/** The validated body the gateway sends on `P`. */
export type BusBody<P extends MessagePatternName> = BusContract[P]['body'];

/** The patterns whose feature answers a PreconditionProbe. */
export type ProbedPattern = {
  [P in MessagePatternName]: BusContract[P] extends { resourceChecksFirst: true } ? P : never;
}[MessagePatternName];

/** What a handler of `P` receives. */
export type BusRequest<P extends MessagePatternName> =
  FeatureRequest<BusBody<P>> | (P extends ProbedPattern ? PreconditionProbe : never);

/** What a handler of `P` answers. */
export type BusReply<P extends MessagePatternName> = FeatureReply<BusContract[P]['reply']>;

/** The exchanges between the gateway and the features: what the application's MessageBus carries. */
export type FeatureExchanges = { [P in MessagePatternName]: Exchange<BusRequest<P>, BusReply<P>> };
