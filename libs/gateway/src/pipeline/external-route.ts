import {
  type PartnerRequestPolicy,
  type ValidationResult,
  validatePrepareRequest,
  validateQuoteRequest,
  validateSubmittedRequest,
} from '@svc/contract';
import { MessagePattern, type MessagePatternName } from '@svc/messaging';

/** What the pipeline needs to know about one API endpoint. */
export interface ExternalRoute {
  name: 'ping' | 'quote' | 'prepare' | 'submitted' | 'status';
  method: 'GET' | 'POST';
  /** Where the validated request goes; null for endpoints the gateway answers itself. */
  pattern: MessagePatternName | null;
  validate: ((body: unknown, policy: PartnerRequestPolicy) => ValidationResult<unknown>) | null;
  /**
   * The resource's own checks answer before body validation (prepare: an unknown or expired session is reported
   * before a bad callbackUrl). The feature is asked read-only; nothing is recorded for the rejected request.
   */
  resourceChecksFirst?: boolean;
}

export const ROUTES = {
  ping: { name: 'ping', method: 'GET', pattern: null, validate: null },
  quote: { name: 'quote', method: 'POST', pattern: MessagePattern.quote, validate: validateQuoteRequest },
  prepare: {
    name: 'prepare',
    method: 'POST',
    pattern: MessagePattern.prepare,
    validate: validatePrepareRequest,
    resourceChecksFirst: true,
  },
  submitted: {
    name: 'submitted',
    method: 'POST',
    pattern: MessagePattern.submit,
    validate: (body) => validateSubmittedRequest(body),
  },
  status: { name: 'status', method: 'GET', pattern: MessagePattern.status, validate: null },
} as const satisfies Record<string, ExternalRoute>;
