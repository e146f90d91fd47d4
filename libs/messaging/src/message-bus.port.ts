import { type FeatureExchanges } from './bus-contract';

/** One request/reply exchange: what the sender sends and what it gets back. */
export interface Exchange<TRequest = unknown, TReply = unknown> {
  request: TRequest;
  reply: TReply;
}

/** The exchanges a bus carries, by pattern. */
export type Exchanges = Record<string, Exchange>;

/**
 * Request/reply and keyed events between apps, whatever the transport. The application's bus carries the
 * FeatureExchanges (BusContract); the type parameter exists for transport tests, which echo payloads of their own.
 */
export interface MessageBus<E extends Exchanges = FeatureExchanges> {
  request<P extends keyof E & string>(
    pattern: P,
    payload: E[P]['request'],
    options: { timeoutMs: number },
  ): Promise<E[P]['reply']>;
  emit(topic: string, key: string, payload: unknown): Promise<void>;
}

export const MESSAGE_BUS = Symbol('MESSAGE_BUS');

/** No reply within the deadline: the caller answers 503 dependency_unavailable, never a half-done request. */
export class BusTimeoutError extends Error {
  override readonly name = 'BusTimeoutError';
  constructor(
    readonly pattern: string,
    readonly timeoutMs: number,
  ) {
    super(`no reply to ${pattern} within ${timeoutMs} ms`);
  }
}

/** The error reply of a handler that ran past its deadline (the composition's bus interceptor sends it). */
export const HANDLER_DEADLINE_CODE = 'handler_deadline';

/** Nobody serves the pattern (a feature app is down or not composed in). */
export class NoHandlerError extends Error {
  override readonly name = 'NoHandlerError';
  constructor(readonly pattern: string) {
    super(`no handler for ${pattern}`);
  }
}
