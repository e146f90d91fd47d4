import { type AuthFailure } from './auth-types';
import { authFailure } from './auth-failure';

/** Spec: "maximum clock skew 5 minutes either way". A skew of exactly five minutes is still accepted. */
export const MAX_CLOCK_SKEW_MS = 300_000;

// Sixteen digits cover every epoch-millisecond date for millennia; the bound keeps Number() exact enough.
const EPOCH_MS = /^[0-9]{1,16}$/;

export function checkTimestamp(header: string, nowMs: number): { ok: true } | AuthFailure {
  if (!EPOCH_MS.test(header)) {
    return authFailure('external_auth_timestamp_invalid', 'X-Timestamp must be decimal epoch milliseconds.');
  }
  if (Math.abs(nowMs - Number(header)) > MAX_CLOCK_SKEW_MS) {
    return authFailure(
      'external_auth_timestamp_expired',
      'X-Timestamp is more than five minutes from server time.',
    );
  }
  return { ok: true };
}
