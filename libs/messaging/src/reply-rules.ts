import { attemptIdFor, isErrorCode, parseTransactionResourceId } from '@svc/contract';
import { type BusReply, type BusRequest } from './bus-contract';
import { type FeatureRequest, type ResourceRef } from './envelopes';
import { MessagePattern, type MessagePatternName } from './patterns';
import { bindingOf, type ReplyBinding } from './reply-binding';

/** Why a reply was dropped (the `reason` label of `intent_bus_replies_refused_total`): a small, fixed set. */
export type ReplyMismatch =
  /** Not a FeatureReply, or an ok answer where there can be none (to a precondition probe). */
  | 'malformed'
  /** No binding: no feature's bus server wrote it. */
  | 'unbound'
  /** Bound to another operation. */
  | 'operation'
  /** Bound to another request (requestId). */
  | 'request'
  /** Bound to, or naming, another partner. */
  | 'partner'
  /** Names another resource than the one the request named (attempt, intent session, event, transaction, range). */
  | 'resource';

type Answer<P extends MessagePatternName> = Extract<BusReply<P>, { ok: true }>;

/**
 * Whether an ok answer concerns what its request named, for one operation: null when it does. It runs after the
 * binding matched; the answer is untrusted JSON, so a rule that throws on it counts as `malformed`.
 */
export type AnswerRule<P extends MessagePatternName> = (
  request: BusRequest<P>,
  answer: Answer<P>,
) => ReplyMismatch | null;

/**
 * The answer names nothing of the request beyond its binding (a page of the partner's own records, which the feature
 * selected by the bound partnerId): the binding is the whole check.
 */
const bindingOnly = (): null => null;

/**
 * Each operation's rule, registered with the operation: an operation without one does not compile. What an answer
 * is checked against is what the gateway itself knows of the request: the partner, the resource in the path, the
 * Idempotency-Key (a prepare's attempt id derives from the partner, the session and the key), the replayed resource.
 */
export const ANSWER_RULES: { readonly [P in MessagePatternName]: AnswerRule<P> } = {
  [MessagePattern.quote]: (request, { body, resource }) => {
    if (request.replayOf !== null && body.intentSessionId !== request.replayOf.id) return 'resource';
    return isRef(resource, 'intent_session', body.intentSessionId) ? null : 'resource';
  },
  [MessagePattern.prepare]: (request, { body, resource }) => {
    // A probe only ever gets a refusal: its body was rejected.
    if ('rejectedBody' in request) return 'malformed';
    if (body.intentSessionId !== request.resourceId) return 'resource';
    const attemptId =
      request.replayOf?.id ??
      (request.idempotencyKey === null
        ? null
        : attemptIdFor(request.partnerId, request.resourceId ?? '', request.idempotencyKey));
    // The attempt of this partner, session and key: another partner's, or another session's, is named otherwise.
    if (attemptId !== null && body.attemptId !== attemptId) return 'resource';
    return isRef(resource, 'attempt', body.attemptId) ? null : 'resource';
  },
  [MessagePattern.submit]: (request, { body, resource }) => {
    const attemptId = request.replayOf?.id ?? request.resourceId;
    if (body.attemptId !== attemptId) return 'resource';
    if (body.partnerId !== request.partnerId) return 'partner';
    return isRef(resource, 'attempt', attemptId) ? null : 'resource';
  },
  [MessagePattern.status]: (request, { body }) => {
    if (body.attemptId !== request.resourceId) return 'resource';
    return body.partnerId === request.partnerId ? null : 'partner';
  },
  [MessagePattern.searchAttempts]: bindingOnly,
  [MessagePattern.transactionAttempt]: (request, { body }) => {
    if (body.partnerId !== request.partnerId) return 'partner';
    const named = parseTransactionResourceId(request.resourceId ?? '');
    const matched = body.matchedTransaction;
    return named.ok && matched.chainId === named.chainId && matched.txHash === named.txHash
      ? null
      : 'resource';
  },
  [MessagePattern.webhookEvents]: bindingOnly,
  [MessagePattern.webhookRedeliver]: (request, { body, resource }) => {
    if (body.eventId !== request.resourceId) return 'resource';
    return isRef(resource, 'attempt', body.attemptId) ? null : 'resource';
  },
  [MessagePattern.webhookRecover]: (request, { body }) =>
    body.from === new Date(request.body.from).toISOString() &&
    body.to === new Date(request.body.to).toISOString()
      ? null
      : 'resource',
};

export function isOperation(pattern: string): pattern is MessagePatternName {
  return Object.prototype.hasOwnProperty.call(ANSWER_RULES, pattern);
}

/**
 * Why `reply` does not answer `request` on `operation`, or null when it does: its binding must be the request's
 * (operation, requestId, partnerId, resourceId), a refusal must be one, and an ok answer must pass the operation's
 * rule. A reply forged by someone who read the request can copy what binds it; MACs over the replies would close that.
 */
export function replyMismatch(
  operation: MessagePatternName,
  request: FeatureRequest,
  reply: unknown,
): ReplyMismatch | null {
  if (typeof reply !== 'object' || reply === null) return 'malformed';
  const { ok, inReplyTo } = reply as { ok?: unknown; inReplyTo?: unknown };
  if (typeof ok !== 'boolean') return 'malformed';
  const bound = bindingMismatch(inReplyTo, bindingOf(operation, request));
  if (bound !== null) return bound;
  if (!ok) {
    const { code, message } = reply as { code?: unknown; message?: unknown };
    return typeof code === 'string' && isErrorCode(code) && typeof message === 'string' ? null : 'malformed';
  }
  const { body } = reply as { body?: unknown };
  if (typeof body !== 'object' || body === null) return 'malformed';
  const rule = ANSWER_RULES[operation] as AnswerRule<MessagePatternName>;
  try {
    return rule(request as BusRequest<MessagePatternName>, reply as Answer<MessagePatternName>);
  } catch {
    return 'malformed';
  }
}

function bindingMismatch(binding: unknown, expected: ReplyBinding): ReplyMismatch | null {
  if (typeof binding !== 'object' || binding === null) return 'unbound';
  const claimed = binding as Partial<ReplyBinding>;
  if (claimed.operation !== expected.operation) return 'operation';
  if (claimed.requestId !== expected.requestId) return 'request';
  if (claimed.partnerId !== expected.partnerId) return 'partner';
  if (claimed.resourceId !== expected.resourceId) return 'resource';
  return null;
}

function isRef(ref: ResourceRef | null | undefined, kind: ResourceRef['kind'], id: string): boolean {
  return ref?.kind === kind && ref.id === id;
}
