/** Clock skew allowed either way (spec: 5 minutes). */
export const AUTH_WINDOW_MS = 5 * 60 * 1000;

/**
 * A nonce binding lives as long as a request carrying it could still pass the timestamp check (the whole
 * ±5 min window, 10 min) plus the spec's 60 s margin.
 */
export const NONCE_RETENTION_SECONDS = (2 * AUTH_WINDOW_MS) / 1000 + 60;
