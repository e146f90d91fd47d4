import { type FieldError } from '../errors/error-response';

/** Per-partner settings that bound what a request may ask for; the caller loads them from partner config. */
export interface PartnerRequestPolicy {
  /** Highest integrator markup the partner may request (spec default 300). */
  maxFeeBps: number;
  /** The only callbackUrl a request may name; null when the partner has none configured. */
  callbackUrl: string | null;
}

/** Errors are ordered most important first: the gateway reports `errors[0].code` as the response code. */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };
