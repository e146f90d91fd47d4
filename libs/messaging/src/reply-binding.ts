import { type MessageHandler } from '@nestjs/microservices';
import { isObservable, map, of } from 'rxjs';
import { type FeatureRequest } from './envelopes';

/**
 * Which request a FeatureReply answers, as the feature's bus server writes it into the reply (`inReplyTo`): the
 * operation (pattern), the gateway's requestId, the requesting partner and the resource the request named. The
 * requester drops a reply whose binding is not its request's (reply-screen.ts); the caller never sees the field.
 */
export interface ReplyBinding {
  operation: string;
  requestId: string;
  partnerId: string;
  resourceId: string | null;
}

/** A FeatureReply on the wire. */
export type BoundReply<TReply> = TReply & { inReplyTo: ReplyBinding };

/** Whether a payload is a FeatureRequest (a PreconditionProbe is one): what the gateway sends on every operation. */
export function isFeatureRequest(data: unknown): data is FeatureRequest {
  if (typeof data !== 'object' || data === null) return false;
  const { partnerId, requestId, resourceId } = data as Partial<FeatureRequest>;
  return (
    typeof partnerId === 'string' &&
    typeof requestId === 'string' &&
    (resourceId === null || typeof resourceId === 'string')
  );
}

export function bindingOf(operation: string, request: FeatureRequest): ReplyBinding {
  return {
    operation,
    requestId: request.requestId,
    partnerId: request.partnerId,
    resourceId: request.resourceId,
  };
}

/** The reply with its binding to `request` added; anything but a FeatureReply to a FeatureRequest as it is. */
export function bindReply(operation: string, request: unknown, reply: unknown): unknown {
  const isFeatureReply =
    typeof reply === 'object' && reply !== null && typeof (reply as { ok?: unknown }).ok === 'boolean';
  if (!isFeatureRequest(request) || !isFeatureReply) return reply;
  return { ...reply, inReplyTo: bindingOf(operation, request) };
}

/**
 * A request handler whose replies carry their binding: what a bus server registers for each request pattern
 * (`addHandler`), so that every feature's handlers answer bound, whatever the transport, and no handler has to.
 */
export function bindingReplies(operation: string, handler: MessageHandler): MessageHandler {
  const bound: MessageHandler = async (data: unknown, context?: unknown) => {
    const result: unknown = await handler(data, context);
    const reply$ = isObservable(result) ? result : of(result);
    return reply$.pipe(map((reply) => bindReply(operation, data, reply)));
  };
  return bound;
}
