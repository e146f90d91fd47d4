/** What one HTTP exchange with a provider came to; adapters turn it into our failure vocabulary. */
export type HttpResult =
  /** An answer whose body parsed as JSON (any status). */
  | { kind: 'json'; status: number; body: unknown; retryAfterMs?: number }
  /** An answer whose body is not JSON, or too large to read. */
  | { kind: 'unreadable'; status: number; detail: string; retryAfterMs?: number }
  /** The caller's signal or the per-provider time-out fired. */
  | { kind: 'timeout' }
  /** No answer: connection refused or dropped, DNS, TLS. */
  | { kind: 'network'; detail: string };
