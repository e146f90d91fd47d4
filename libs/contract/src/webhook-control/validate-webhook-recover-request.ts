import { type ErrorCode } from '../errors/error-codes';
import { type FieldError } from '../errors/error-response';
import { bodyObject } from '../validation/invalid-request-body';
import { type ValidationResult } from '../validation/validation-result';
import { decodeRecoverContinuation, type RecoverContinuation } from './recover-continuation';
import { WEBHOOK_CONTROL_LIMITS } from './webhook-control-limits';

/** The validated range, in epoch ms, and where this page goes on from (absent: the first page). */
export interface WebhookRecoverRange {
  from: number;
  to: number;
  continuation?: RecoverContinuation;
}

const FIELDS = ['from', 'to', 'continuation'];

/** ISO 8601 with a date, a time to the second (milliseconds optional) and an explicit zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * Validates a parsed POST /webhooks/recover body: `from` before `to`, at most maxRecoverSpanDays apart, and an
 * optional `continuation` a previous page of the same range returned (checked once the range is valid).
 */
export function validateWebhookRecoverRequest(body: unknown): ValidationResult<WebhookRecoverRange> {
  const checked = bodyObject(body);
  if ('refused' in checked) return checked.refused;
  const json = checked.json;
  const errors: FieldError[] = [];
  const fail = (code: ErrorCode, field: string, message: string) => errors.push({ code, field, message });
  for (const key of Object.keys(json)) {
    if (!FIELDS.includes(key)) fail('unknown_field', key, `${key} is not a field of a recovery`);
  }
  const instant = (field: 'from' | 'to'): number | null => {
    const value = json[field];
    const ms = typeof value === 'string' && ISO_INSTANT.test(value) ? Date.parse(value) : NaN;
    if (!Number.isFinite(ms)) {
      fail('invalid_recover_range', field, `${field} must be an ISO 8601 instant with a zone`);
      return null;
    }
    return ms;
  };
  const from = instant('from');
  const to = instant('to');
  if (from !== null && to !== null) {
    if (to <= from) fail('invalid_recover_range', 'to', 'to must be later than from');
    else if (to - from > WEBHOOK_CONTROL_LIMITS.maxRecoverSpanDays * DAY_MS)
      fail(
        'invalid_recover_range',
        'to',
        `to must be at most ${WEBHOOK_CONTROL_LIMITS.maxRecoverSpanDays} days after from`,
      );
  }
  if (errors.length > 0 || from === null || to === null) return { ok: false, errors };
  if (json.continuation === undefined) return { ok: true, value: { from, to } };
  const continuation =
    typeof json.continuation === 'string' ? decodeRecoverContinuation(from, to, json.continuation) : null;
  if (continuation === null) {
    const message = 'continuation is not one this service returned for a recovery of this from and to';
    return { ok: false, errors: [{ code: 'invalid_recover_continuation', field: 'continuation', message }] };
  }
  return { ok: true, value: { from, to, continuation } };
}
