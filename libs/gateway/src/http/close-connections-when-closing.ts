import { type FastifyInstance } from 'fastify';

/**
 * Once the server is closing (SIGTERM), every response still to be sent carries `Connection: close`, so the socket
 * ends with it. A request in flight when the close began would otherwise leave its keep-alive connection open, and
 * the close would wait for the client to drop it, up to the keep-alive timeout (72 s), past any grace period.
 */
export function closeConnectionsWhenClosing(fastify: FastifyInstance): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('Connection', 'close');
    done(null, payload);
  });
}
