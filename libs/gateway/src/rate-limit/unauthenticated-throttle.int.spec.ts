import { Writable } from 'node:stream';
import { createLogger } from '@svc/platform';
import Fastify from 'fastify';
import { throttleUnauthenticated } from './unauthenticated-throttle';

/** The throttle on a real Fastify instance (inject), with a real logger whose lines are kept. */
async function edgeWith(trustsProxy: boolean) {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const fastify = Fastify();
  throttleUnauthenticated(fastify, {
    perMinute: 60,
    trustsProxy,
    logger: createLogger({ level: 'info', name: 'edge', destination }),
  });
  fastify.get('/api/external/ping', (_request, reply) => reply.code(401).send({}));
  await fastify.ready();
  const ping = (headers: Record<string, string> = {}) =>
    fastify.inject({ method: 'GET', url: '/api/external/ping', headers });
  return { fastify, ping, warnings: () => lines.filter((l) => l.includes('TRUST_PROXY is unset')) };
}

describe('the failed-authentication throttle behind an untrusted proxy', () => {
  it('given requests carrying X-Forwarded-For and TRUST_PROXY unset, then it warns once per process', async () => {
    const edge = await edgeWith(false);
    await edge.ping();
    expect(edge.warnings()).toHaveLength(0);
    await edge.ping({ 'x-forwarded-for': '203.0.113.7' });
    await edge.ping({ 'x-forwarded-for': '203.0.113.8' });
    expect(edge.warnings()).toHaveLength(1);
    await edge.fastify.close();
  });

  it('given TRUST_PROXY set, then X-Forwarded-For is expected and nothing is said', async () => {
    const edge = await edgeWith(true);
    await edge.ping({ 'x-forwarded-for': '203.0.113.7' });
    expect(edge.warnings()).toHaveLength(0);
    await edge.fastify.close();
  });
});
