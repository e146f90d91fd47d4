import { type IncomingMessage } from 'node:http';
import { type FastifyInstance, type FastifyRequest } from 'fastify';
import { readRawBody } from './read-raw-body';

/**
 * Replaces Fastify's body parsers with one that hands the exact bytes over as a Buffer, whatever the Content-Type
 * (or none): the gateway hashes them for the signature and parses JSON itself (request-checks), so a bad body
 * gets the same codes as any other check. Bounded by `limit` (413 payload_too_large, connection closed). A body
 * sent to no route is not read: the answer is 404 or 405 whatever its size.
 */
export function acceptRawBodies(fastify: FastifyInstance, limit: number): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    (request: FastifyRequest, payload: IncomingMessage): Promise<Buffer | undefined> =>
      request.is404 ? Promise.resolve(undefined) : readRawBody(payload, limit),
  );
}
