import { Writable } from 'node:stream';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern as OnMessage } from '@nestjs/microservices';
import { MessagePattern } from '@svc/messaging';
import { createLogger } from '@svc/platform';
import { MemoryEventStore } from '@svc/event-store';
import { signedRequest } from '@svc/testing';
import { type AddressInfo } from 'node:net';
import { loadAppConfig } from '@svc/composition';
import { createStandaloneApp } from '../app/create-standalone-app';
import { PARTNERS } from './test-app';

@Controller()
class LeakyQuote {
  @OnMessage(MessagePattern.quote)
  quote(): never {
    throw new Error(`upstream failed for ${PARTNERS.v2.secret}`);
  }
}
@Module({ controllers: [LeakyQuote] })
class LeakyModule {}

describe('logs and responses never carry secrets or signatures', () => {
  it('keeps the partner secret and X-Signature out of every log line and response', async () => {
    let logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logged += chunk.toString();
        done();
      },
    });
    const app = await createStandaloneApp({
      config: loadAppConfig({}),
      partners: Object.values(PARTNERS),
      store: new MemoryEventStore(),
      logger: createLogger({
        level: 'trace',
        name: 'leak-test',
        destination: sink,
        secrets: Object.values(PARTNERS).map((p) => p.secret),
      }),
      features: [LeakyModule],
    });
    await app.listen(0, '127.0.0.1');
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const signature = 'f'.repeat(64);
    const responses = [
      await signedRequest({ port, partner: PARTNERS.v2, method: 'GET', path: '/api/external/ping' }),
      await signedRequest({
        port,
        partner: PARTNERS.v2,
        method: 'GET',
        path: '/api/external/ping',
        signature,
      }),
      await signedRequest({
        port,
        partner: PARTNERS.v2,
        method: 'POST',
        path: '/api/external/intents/quote',
        body: { walletAddress: 'nope' },
      }),
      await signedRequest({
        port,
        partner: PARTNERS.v2,
        method: 'POST',
        path: '/api/external/intents/quote',
        body: {
          walletAddress: '0x1111111111111111111111111111111111111111',
          sources: [
            { chainId: 1, address: '0x2222222222222222222222222222222222222222', amount: '5', decimals: 6 },
          ],
          target: {
            chainId: 10,
            address: '0x3333333333333333333333333333333333333333',
            targetToken: { address: '0x3333333333333333333333333333333333333333', decimals: 6 },
          },
        },
      }),
    ];
    await app.close();

    expect(responses.map((r) => r.status)).toEqual([200, 401, 400, 500]);
    expect(logged).toContain('"path":"/api/external/ping"'); // the access log did record these requests
    expect(logged).toContain('upstream failed'); // and the internal error, for operators
    for (const secret of Object.values(PARTNERS).map((p) => p.secret)) expect(logged).not.toContain(secret);
    expect(logged).not.toContain(signature);
    for (const r of responses) {
      expect(r.text).not.toContain(PARTNERS.v2.secret);
      expect(r.text).not.toContain(signature);
      expect(r.text).not.toMatch(/\.ts:\d+/); // no stack trace
    }
  });
});
