import { type ErrorCode, type FieldError } from '@svc/contract';

/**
 * What the gateway sends a feature for one authenticated, validated API request. Plain JSON: it crosses
 * Kafka in the distributed composition, so nothing here may be a class, a bigint or a Date.
 * Features translate it into a command at their bus handler; use cases never see it.
 */
export interface FeatureRequest<TBody = unknown> {
  partnerId: string;
  /** Correlates logs across processes. */
  requestId: string;
  /** The partner's Idempotency-Key (POST) or null (GET). */
  idempotencyKey: string | null;
  /** Path parameter (intentSessionId or attemptId) where the route has one. */
  resourceId: string | null;
  /**
   * Set when the gateway replays a completed request: answer with the current state of this resource
   * (the one the first call created) instead of running the operation again.
   */
  replayOf: ResourceRef | null;
  /** Validated request body (already defaulted), or null for GET. */
  body: TBody;
  /** Server time of the request, epoch ms: handlers take time from here, not from their own clock. */
  receivedAt: number;
}

/**
 * Sent instead of a FeatureRequest when the body failed validation on a route whose resource checks come first
 * (prepare): the feature answers its own read-only precondition error, else these errors. It never answers ok,
 * and nothing is recorded for such a request. On the wire it is a FeatureRequest with `rejectedBody` added.
 */
export interface PreconditionProbe extends FeatureRequest<null> {
  idempotencyKey: null;
  replayOf: null;
  rejectedBody: FieldError[];
}

export interface ResourceRef {
  /** webhook_recovery: a POST /webhooks/recover, by the tag its redeliveries carry. */
  kind: 'intent_session' | 'attempt' | 'webhook_recovery';
  id: string;
}

/** A feature's answer: ok with the response body (the gateway adds apiVersion), or a refusal. */
export type FeatureReply<TBody = unknown> = FeatureAnswer<TBody> | FeatureRefusal;

export interface FeatureAnswer<TBody = unknown> {
  ok: true;
  body: TBody;
  /** What the request created, for the gateway's idempotency ledger; null when it created nothing. */
  resource: ResourceRef | null;
}

/** The error the gateway answers, with the HTTP status of `code`. */
export interface FeatureRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
  details?: FieldError[];
  retryAfterSeconds?: number;
}
