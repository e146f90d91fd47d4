import { type IdempotencyStore } from './idempotency/idempotency-store';

export interface PartnerClientOptions {
  /** Deployment root, e.g. `https://api.example.com` or `https://host/prefix`; `/api/external` is appended. */
  baseUrl: string;
  partnerId: string;
  /** Stays in this process: only signatures derived from it are sent. */
  secret: string;
  /** Must match the server-side configuration of the partner; the server never negotiates. */
  authVersion: 1 | 2;
  fetch?: typeof fetch;
  /** Where POST keys and bodies are persisted before sending. Default: in memory. */
  idempotencyStore?: IdempotencyStore;
  /** Retries after the first try. Default 3. */
  maxRetries?: number;
  /** Epoch milliseconds for X-Timestamp. Default Date.now. */
  now?: () => number;
  /** First backoff step. Default 200 ms. */
  retryBaseDelayMs?: number;
  /** Cap for backoff and Retry-After. Default 10 s. */
  retryMaxDelayMs?: number;
  /** Per try. Default 30 s (a quote may take up to its maxWaitMs of 18 s). */
  requestTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface PostOptions {
  /** Key to use when this operation is first sent. Default: a new random key. */
  idempotencyKey?: string;
  /**
   * Names the operation in the idempotency store. Calling again with the same id (after a crash, a time-out or a
   * PartnerClientError) resends the stored key and bytes. Default: a new id, i.e. a new operation.
   */
  operationId?: string;
}
