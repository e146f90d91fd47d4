import { CHAIN_STATUSES } from '../attempt/chain-status';
import { LEG_ERROR_CODES, LEG_STATUSES } from '../attempt/leg-status';
import { AMOUNT_BASES } from '../enums/amount-basis';
import { ATTEMPT_STATUSES, TERMINAL_ATTEMPT_STATUSES } from '../enums/attempt-status';
import { COVERAGE_MODES } from '../enums/coverage-mode';
import { KNOWN_FAILED_SOURCE_REASON_CODES } from '../enums/failed-source-reason-code';
import { PROVIDER_NAMES } from '../enums/provider-name';
import { QUOTE_STATUSES } from '../enums/quote-status';
import { SUBMIT_METHODS } from '../enums/submit-method';
import { WEBHOOK_EVENT_KINDS } from '../enums/webhook-event-kind';
import { ERROR_CODES } from '../errors/error-codes';
import { enumSchema, type JsonSchema, openEnumSchema } from './json-schema';

/** Every enumeration of the contract, from the contract's own value lists. */
export const ENUM_SCHEMAS: Record<string, JsonSchema> = {
  ProviderName: enumSchema(
    PROVIDER_NAMES,
    'A route provider. Only relay, across and mayan currently produce external routes; symbiosis is excluded from external traffic and fly is not evaluated by external route selection.',
  ),
  QuoteStatus: enumSchema(
    QUOTE_STATUSES,
    'ready: a full executable plan was selected. partial_only: only part of the sources can be covered (see failedSources). unavailable: no acceptable plan; do not prepare. expired: reported only on an idempotent replay after expiresAt; quote again with a new Idempotency-Key.',
  ),
  CoverageMode: enumSchema(COVERAGE_MODES, 'How much of the requested sources the plan covers.'),
  AttemptStatus: enumSchema(
    ATTEMPT_STATUSES,
    `The attempt's lifecycle: prepared → wallet_submitted → provider_pending → settled, or failed; expired when no evidence arrived before evidenceDeadlineAt. ${TERMINAL_ATTEMPT_STATUSES.join(', ')} are terminal.`,
  ),
  SubmitMethod: enumSchema(
    SUBMIT_METHODS,
    'How the wallet executes a chain action: wallet_sendCalls (EIP-5792 batch, only when the wallet reported atomic batching) or sendTransaction (one transaction after another, in order).',
  ),
  AmountBasis: enumSchema(
    AMOUNT_BASES,
    'Provenance of an amount: exact (read from the chain) or estimated (best available figure).',
  ),
  WebhookEventKind: enumSchema(
    WEBHOOK_EVENT_KINDS,
    'The lifecycle event a webhook reports. There is intentionally no expired (nor prepared) event: poll status.',
  ),
  FailedSourceReasonCode: openEnumSchema(
    KNOWN_FAILED_SOURCE_REASON_CODES,
    'Why a source could not be routed. An open set: tolerate values not listed here.',
  ),
  ChainStatus: openEnumSchema(
    CHAIN_STATUSES,
    'Status of one source chain: awaiting_evidence, submitted, confirmed, reverted, settled, failed, expired. An open set: treat an unknown value as in progress.',
  ),
  LegStatus: openEnumSchema(
    LEG_STATUSES,
    'Status of one leg: awaiting_source, pending, settled (terminal), failed (terminal; see errorCode). An open set: treat an unknown value as in progress.',
  ),
  LegErrorCode: openEnumSchema(
    LEG_ERROR_CODES,
    'Why a leg (or the attempt) failed: source_reverted, refunded, provider_failed, settlement_timeout, below_minimum, destination_action_failed. An open set.',
  ),
  ErrorCode: errorCodeSchema(),
};

/** Every registry code, with its HTTP status and sentence (`x-enumDescriptions` is rendered by Redoc and ours). */
function errorCodeSchema(): JsonSchema {
  const entries = Object.entries(ERROR_CODES);
  return {
    type: 'string',
    enum: entries.map(([code]) => code),
    description:
      'The stable error code of an ErrorResponse (and of each FieldError). Partners branch on it; the HTTP status of each code is fixed.',
    'x-enumDescriptions': Object.fromEntries(
      entries.map(([code, spec]) => [code, `${spec.status}: ${spec.description}`]),
    ),
  };
}
