import { WEBHOOK_CONTROL_LIMITS } from '@svc/contract';

/** The bounds of the live status streams of one gateway instance (docs/webhooks.md, "Live status"). */
export interface LiveStatusLimits {
  /** Streams one partner may hold open at once on this instance. */
  perPartner: number;
  /** Streams this instance holds open at once, all partners together. */
  perInstance: number;
  /** A comment line after this long without an event, so proxies keep the connection open. */
  heartbeatMs: number;
  /**
   * Bytes a stream may have waiting for its client (in the response and its socket, beyond what the kernel took): a
   * client that stops reading is closed once its stream holds more, so a stream's memory stays bounded.
   */
  maxBufferedBytes: number;
  /** How long a stream whose client stopped reading may wait for it (the socket to drain) before it is closed. */
  drainTimeoutMs: number;
}

export const DEFAULT_LIVE_STATUS_LIMITS: LiveStatusLimits = {
  perPartner: WEBHOOK_CONTROL_LIMITS.maxLiveStreamsPerPartner,
  perInstance: WEBHOOK_CONTROL_LIMITS.maxLiveStreamsPerInstance,
  heartbeatMs: WEBHOOK_CONTROL_LIMITS.heartbeatMs,
  maxBufferedBytes: 256 * 1024,
  drainTimeoutMs: 30_000,
};

/** Optional: a composition (or a test) that binds it overrides some of DEFAULT_LIVE_STATUS_LIMITS. */
export const LIVE_STATUS_LIMITS = Symbol('LIVE_STATUS_LIMITS');
