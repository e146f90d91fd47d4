import { type ErrorCode, type FieldError } from '@svc/contract';

/**
 * What the gateway sends a feature for one authenticated, validated API request. Plain JSON: it crosses
 * Kafka in the distributed composition, so nothing here may be a class, a bigint or a Date.
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
  /**
   * Set when the body failed validation on a route whose resource checks come first (prepare): the feature runs
   * its read-only preconditions and answers their error, else this one. Nothing is recorded for such a request.
   */
  rejectedBody?: FieldError[];
  /** Server time of the request, epoch ms: handlers take time from here, not from their own clock. */
  receivedAt: number;
}

export interface ResourceRef {
  kind: 'intent_session' | 'attempt';
  id: string;
}

export type FeatureReply<TBody = unknown> =
  | { ok: true; body: TBody; resource: ResourceRef | null }
  | {
      ok: false;
      code: ErrorCode;
      message: string;
      details?: FieldError[];
      retryAfterSeconds?: number;
    };
