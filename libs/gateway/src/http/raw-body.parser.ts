import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { clientAddressKey } from '../rate-limit/client-key';
import { ApiError } from './api-error';
import { type BodyBudget } from './body-budget';
import { readRawBody } from './read-raw-body';

/**
 * Replaces Fastify's body parsers with one that hands the exact bytes over as a Buffer, whatever the Content-Type
 * (or none): the gateway hashes them for the signature and parses JSON itself (request-checks), so a bad body
 * gets the same codes as any other check. Bounded by `limit` (413 payload_too_large, connection closed) and by the
 * body budget: what a body holds is taken from its client's share and the instance's total until its response is
 * done, and a body past either is refused before more of it is read (429 client_body_limit_reached, 503
 * body_limit_reached, connection closed). A body sent to no route is not read: the answer is 404 or 405 whatever its
 * size.
 */
export function acceptRawBodies(fastify: FastifyInstance, limit: number, budget: BodyBudget): void {
  const responses = new WeakMap<FastifyRequest, ServerResponse>();
  fastify.addHook('onRequest', (request, reply, done) => {
    responses.set(request, reply.raw);
    done();
  });
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    (request: FastifyRequest, payload: IncomingMessage): Promise<Buffer | undefined> =>
      request.is404
        ? Promise.resolve(undefined)
        : readRawBody(payload, limit, budgetOf(request, responses.get(request), budget)),
  );
}

/** Takes a request's body bytes from the budget as they come, and gives them all back once its response is done. */
function budgetOf(
  request: FastifyRequest,
  response: ServerResponse | undefined,
  budget: BodyBudget,
): (bytes: number) => void {
  const client = clientAddressKey(request.ip);
  let held = 0;
  let done = false;
  // The response's 'close': sent, or its connection gone; the body is held until then.
  (response ?? request.raw).once('close', () => {
    budget.give(client, held);
    held = 0;
    done = true;
  });
  return (bytes) => {
    if (done) return;
    const refused = budget.take(client, bytes);
    if (refused === null) {
      held += bytes;
      return;
    }
    throw refused === 'client'
      ? new ApiError(
          'client_body_limit_reached',
          `request bodies from this address already hold ${budget.limits.perClientBytes} bytes on this instance`,
          { retryAfterSeconds: 1, headers: { Connection: 'close' } },
        )
      : new ApiError(
          'body_limit_reached',
          `request bodies on this instance already hold ${budget.limits.totalBytes} bytes`,
          { retryAfterSeconds: 1, headers: { Connection: 'close' } },
        );
  };
}
