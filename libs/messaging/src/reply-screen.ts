import { Logger } from '@nestjs/common';
import { type WritePacket } from '@nestjs/microservices';
import { registeredMetric } from '@svc/platform';
import { Counter } from 'prom-client';
import { isFeatureRequest } from './reply-binding';
import { isOperation, replyMismatch } from './reply-rules';

/** Replies a requester dropped because they do not answer their request (review M6 / N-M8), by pattern and reason. */
export const repliesRefused = registeredMetric(
  'intent_bus_replies_refused_total',
  () =>
    new Counter({
      name: 'intent_bus_replies_refused_total',
      help: 'Bus replies dropped because they do not answer their request (forged, cross-wired or garbled)',
      labelNames: ['pattern', 'reason'],
    }),
);

const log = new Logger('MessageBus');

type Deliver = (packet: WritePacket) => void;

/**
 * The callback a bus client awaits the reply to `request` with (Nest keeps it in its pending-request map by
 * correlation id until the request ends), screened: a reply that does not answer this FeatureRequest (reply-rules.ts)
 * is dropped and counted, and the request keeps waiting for the genuine one, or times out (BusTimeoutError, a 503).
 * A reply that passes reaches the caller without its binding. An error reply carries no data and ends the request as
 * an error (never with anything of it in the answer); a request that is not a FeatureRequest of an operation (a
 * transport test's own payload) is not screened.
 */
export function screenReplies(pattern: string, request: unknown, deliver: Deliver): Deliver {
  if (!isOperation(pattern) || !isFeatureRequest(request)) return deliver;
  return (packet) => {
    if (packet.err) {
      deliver(packet);
      return;
    }
    const mismatch = replyMismatch(pattern, request, packet.response);
    if (mismatch === null) {
      const { inReplyTo: _binding, ...reply } = packet.response as { inReplyTo?: unknown };
      deliver({ ...packet, response: reply });
      return;
    }
    repliesRefused.inc({ pattern, reason: mismatch });
    // Who asked and why the reply was dropped; nothing of the reply (it is the attacker's text).
    log.warn({
      msg: 'bus reply dropped: it does not answer its request',
      pattern,
      requestId: request.requestId,
      partnerId: request.partnerId,
      reason: mismatch,
    });
  };
}
