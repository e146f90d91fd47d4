import { ATTEMPT_STATUSES, type AttemptStatus } from '../enums/attempt-status';
import { type FieldError } from '../errors/error-response';
import { type ErrorCode } from '../errors/error-codes';
import { isAccountAddress } from '../validation/is-account-address.decorator';
import { bodyObject } from '../validation/invalid-request-body';
import { type PartnerRequestPolicy, type ValidationResult } from '../validation/validation-result';
import { LOOKUP_LIMITS } from './lookup-limits';
import { type AttemptSearchQuery } from './lookup.types';
import { decodeSearchCursor } from './search-cursor';

const FIELDS = [
  'walletAddress',
  'recipient',
  'status',
  'createdFrom',
  'createdTo',
  'limit',
  'cursor',
] as const;

/** ISO 8601 with a date, a time to the second (milliseconds optional) and an explicit zone. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Validates a parsed POST /attempts/search body. Strict: unknown fields, wrong types and out-of-range values are
 * refused with a stable code (first error first), and a search names a wallet or a recipient.
 */
export function validateAttemptSearchRequest(
  body: unknown,
  _policy: PartnerRequestPolicy,
): ValidationResult<AttemptSearchQuery> {
  const checked = bodyObject(body ?? {});
  if ('refused' in checked) return checked.refused;
  const json = checked.json;
  const errors: FieldError[] = [];
  const fail = (code: ErrorCode, field: string, message: string) => errors.push({ code, field, message });

  for (const key of Object.keys(json)) {
    if (!(FIELDS as readonly string[]).includes(key)) fail('unknown_field', key, 'is not a search field');
  }
  const address = (field: 'walletAddress' | 'recipient', code: ErrorCode): string | null => {
    const value = json[field];
    if (value === undefined) return null;
    if (!isAccountAddress(value)) {
      fail(
        code,
        field,
        'must be an EVM address other than the zero address (0x followed by 40 hex characters)',
      );
      return null;
    }
    return value.toLowerCase();
  };
  const walletAddress = address('walletAddress', 'invalid_wallet_address');
  const recipient = address('recipient', 'invalid_recipient');
  if (json.walletAddress === undefined && json.recipient === undefined)
    fail('search_filter_required', '', 'name walletAddress, recipient or both');

  const statuses = readStatuses(json.status, fail);
  const createdFrom = readInstant(json.createdFrom, 'createdFrom', fail);
  const createdTo = readInstant(json.createdTo, 'createdTo', fail);
  if (createdFrom !== null && createdTo !== null && createdFrom >= createdTo)
    fail('invalid_time_range', 'createdTo', 'must be later than createdFrom');

  let limit: number = LOOKUP_LIMITS.defaultLimit;
  if (json.limit !== undefined) {
    const value = json.limit;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > LOOKUP_LIMITS.maxLimit)
      fail('invalid_limit', 'limit', `must be an integer from 1 to ${LOOKUP_LIMITS.maxLimit}`);
    else limit = value;
  }

  if (errors.length > 0) return { ok: false, errors: ordered(errors) };
  const filters = { walletAddress, recipient, statuses, createdFrom, createdTo };
  let after = null;
  if (json.cursor !== undefined) {
    const cursor = json.cursor;
    after =
      typeof cursor === 'string' && cursor.length <= LOOKUP_LIMITS.maxCursorLength
        ? decodeSearchCursor(filters, cursor)
        : null;
    if (after === null)
      return {
        ok: false,
        errors: [
          {
            code: 'invalid_cursor',
            field: 'cursor',
            message: 'must be a nextCursor this service returned for a search with the same filters',
          },
        ],
      };
  }
  return { ok: true, value: { ...filters, limit, after } };
}

function readStatuses(
  value: unknown,
  fail: (code: ErrorCode, field: string, message: string) => void,
): AttemptStatus[] | null {
  if (value === undefined) return null;
  const list = Array.isArray(value) ? value : [value];
  const valid =
    list.length >= 1 &&
    list.every((s) => typeof s === 'string' && (ATTEMPT_STATUSES as readonly string[]).includes(s)) &&
    new Set(list).size === list.length;
  if (!valid) {
    fail(
      'invalid_status_filter',
      'status',
      `must be an AttemptStatus or a non-empty array of distinct ones (${ATTEMPT_STATUSES.join(', ')})`,
    );
    return null;
  }
  return list as AttemptStatus[];
}

function readInstant(
  value: unknown,
  field: 'createdFrom' | 'createdTo',
  fail: (code: ErrorCode, field: string, message: string) => void,
): number | null {
  if (value === undefined) return null;
  const ms = typeof value === 'string' && isCalendarInstant(value) ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(ms) || ms < 0) {
    fail('invalid_time_range', field, 'must be an ISO 8601 instant with a zone, e.g. 2026-01-31T12:00:00Z');
    return null;
  }
  return ms;
}

/** The ISO form, with a day that exists in its month and a time of day within bounds (Date.parse rolls them over). */
function isCalendarInstant(value: string): boolean {
  const match = ISO_INSTANT.exec(value);
  if (!match) return false;
  const [y, mo, d, h, mi, s] = [0, 5, 8, 11, 14, 17].map((at) =>
    Number(value.slice(at, at + (at === 0 ? 4 : 2))),
  );
  const days = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  return mo >= 1 && mo <= 12 && d >= 1 && d <= days && h < 24 && mi < 60 && s < 60;
}

function ordered(errors: FieldError[]): FieldError[] {
  const rank = (e: FieldError) => (e.code === 'unknown_field' ? -1 : FIELDS.indexOf(e.field as never));
  return [...errors].sort((a, b) => rank(a) - rank(b));
}
