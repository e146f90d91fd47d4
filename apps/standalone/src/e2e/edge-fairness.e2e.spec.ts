import { Agent, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { type PartnerConfig } from '@svc/platform';
import { signedRequest } from '@svc/testing';
import { exchange, type RawExchange, wellFormedAuth } from './raw-exchange.test-helper';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Bounded before authenticated (issue 23 item 3, security review N-M4): headers checked before a body is read, body
 * bytes in flight bounded per client address and in total, connections fair per client address, and a client that
 * stops reading cut off. Over loopback, two clients are two loopback addresses: the hostile one sends from
 * 127.0.0.2, a partner from 127.0.0.1 beside it.
 */
const PING = '/api/external/ping';
const QUOTE = '/api/external/intents/quote';
const HOSTILE = '127.0.0.2';

const openFrom = (port: number, localAddress: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });

const closeAll = (sockets: Socket[]) =>
  Promise.all(sockets.map((s) => new Promise((r) => s.once('close', r).destroy())));

/** A POST head declaring a body of `length` bytes that is never sent, with well-formed (failing) authentication. */
const bodyNeverSent = (length: number) =>
  `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${wellFormedAuth()}Content-Type: application/json\r\n` +
  `Content-Length: ${length}\r\n\r\n{`;

function expectRefusal(res: RawExchange, status: number, code: string): void {
  expect([res.status, res.json.code, res.headers['connection']]).toEqual([status, code, 'close']);
  expect(res.headers['x-service-api-version']).toBe('1');
  expect(res.json.requestId).toBe(res.headers['x-request-id']);
}

describe('the HTTP edge bounds what a client holds before it is authenticated', () => {
  const partner = PARTNERS.v2 as PartnerConfig & { secret: string };
  const quoteBody = { sources: [], targets: [] };

  describe('with the default settings', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('refuses a body whose authentication headers are missing or stale before reading any of it', async () => {
      // 200 kB declared, one byte sent: had the edge waited for the body, this would end at the request timeout.
      const head = `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{`;
      const missing = await exchange(t.port, [head, 5000], HOSTILE);
      expectRefusal(missing, 401, 'external_auth_headers_required');
      expect(missing.closedAfterMs).toBeLessThan(1000);

      const stale =
        `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\nX-Partner-Id: p\r\nX-Timestamp: ${Date.now() - 3_600_000}\r\n` +
        `X-Signature: ${'0'.repeat(64)}\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n{`;
      const expired = await exchange(t.port, [stale, 5000], HOSTILE);
      expectRefusal(expired, 401, 'external_auth_timestamp_expired');
      expect(expired.closedAfterMs).toBeLessThan(1000);

      // A GET that declares a body is refused before it is read, as the pipeline would after reading it.
      const get = `GET ${PING} HTTP/1.1\r\nHost: x\r\n${wellFormedAuth()}Content-Length: 100000\r\n\r\n`;
      const withBody = await exchange(t.port, [get, 5000], HOSTILE);
      expectRefusal(withBody, 400, 'request_body_not_allowed');
      expect(withBody.closedAfterMs).toBeLessThan(1000);
    });

    it('still reads and verifies a correctly signed body, and answers a bad signature 401 once its body is read', async () => {
      const ok = await signedRequest({ port: t.port, partner, method: 'POST', path: QUOTE, body: quoteBody });
      expect(ok.status).toBe(400); // read, verified, then refused by validation: the pipeline ran
      expect(ok.json.code).not.toMatch(/^external_auth_|limit_reached$/);
      const bad = await signedRequest({
        port: t.port,
        partner,
        method: 'POST',
        path: QUOTE,
        body: quoteBody,
        signature: 'f'.repeat(64),
      });
      expect([bad.status, bad.json.code]).toEqual([401, 'external_auth_signature_invalid']);
    });

    it("a client failing authentication from a partner's own address spends only its own budget: the partner's signed requests are served throughout", async () => {
      // The case on the defaults (AUTH_FAILURES_PER_MINUTE 60): 200 requests with bad signatures claiming
      // a partner, over a kept-alive connection as a misbehaving integration sends them (a 429 closes it; the agent
      // opens the next, within the default new-connection burst), all from 127.0.0.1, the partner's own address.
      // Another partner than the tests above use, so that its budget is whole.
      const partner = PARTNERS.other as PartnerConfig & { secret: string };
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const statuses: number[] = [];
      const served: number[] = [];
      const started = Date.now();
      try {
        for (let i = 0; i < 200; i++) {
          const bad = await signedRequest({
            port: t.port,
            agent,
            partner,
            method: 'POST',
            path: QUOTE,
            body: quoteBody,
            signature: 'f'.repeat(64),
          });
          statuses.push(bad.status);
          if (i % 40 === 39) {
            const ping = await signedRequest({ port: t.port, partner, method: 'GET', path: PING });
            const quote = await signedRequest({
              port: t.port,
              partner,
              method: 'POST',
              path: QUOTE,
              body: quoteBody,
            });
            served.push(ping.status, quote.status);
          }
        }
      } finally {
        agent.destroy();
      }
      const counts = (wanted: number) => statuses.filter((s) => s === wanted).length;
      expect(counts(401) + counts(429)).toBe(200);
      // 60 a minute: the first 60 fail 401, then 429 but for the units that refilled meanwhile (one a second).
      expect(counts(401)).toBeGreaterThanOrEqual(60);
      expect(counts(401)).toBeLessThanOrEqual(60 + Math.ceil((Date.now() - started) / 1000));
      expect(statuses.slice(0, 60).every((s) => s === 401)).toBe(true);
      // Signed: ping 200, the quote read, verified and refused by validation (400): never a 429.
      expect(served).toEqual(Array.from({ length: 5 }, () => [200, 400]).flat());
    });
  });

  describe('with small limits', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        env: {
          MAX_CONNECTIONS_PER_CLIENT: '4',
          MAX_BODY_BYTES: '100000',
          MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT: '250000',
          MAX_BODY_BYTES_IN_FLIGHT: '400000',
          HTTP_HEADERS_TIMEOUT_MS: '1000',
          HTTP_REQUEST_TIMEOUT_MS: '3000',
        },
      });
    });
    afterAll(() => t.close());

    it('refuses one client its fifth connection while a partner beside it connects and is served', async () => {
      const held = await Promise.all([0, 1, 2, 3].map(() => openFrom(t.port, HOSTILE)));
      try {
        const refused = await exchange(t.port, [`GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`], HOSTILE);
        expect([refused.status, refused.json.code, refused.headers['retry-after']]).toEqual([
          429,
          'client_connection_limit_reached',
          '1',
        ]);
        const served = await Promise.all(
          [0, 1, 2, 3, 4, 5].map(() => signedRequest({ port: t.port, partner, method: 'GET', path: PING })),
        );
        expect(served.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      } finally {
        await closeAll(held);
      }
      await new Promise((r) => setTimeout(r, 50));
      const again = await exchange(
        t.port,
        [`GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`],
        HOSTILE,
      );
      expect(again.status).toBe(200);
    });

    it("holds one client's bodies in flight to its share, the partner's bodies still read, and gives the bytes back", async () => {
      // Two 100 kB bodies that never arrive hold 200 kB of the client's 250 kB; a third does not fit.
      const holding = [
        exchange(t.port, [bodyNeverSent(100_000), 4000], HOSTILE),
        exchange(t.port, [bodyNeverSent(100_000), 4000], HOSTILE),
      ];
      await new Promise((r) => setTimeout(r, 200));
      const third = await exchange(t.port, [bodyNeverSent(100_000), 4000], HOSTILE);
      expectRefusal(third, 429, 'client_body_limit_reached');
      expect(third.closedAfterMs).toBeLessThan(1000);
      // The partner's signed bodies, several at once, are read and verified meanwhile.
      const quotes = await Promise.all(
        [0, 1, 2].map(() =>
          signedRequest({ port: t.port, partner, method: 'POST', path: QUOTE, body: quoteBody }),
        ),
      );
      expect(quotes.map((q) => q.status)).toEqual([400, 400, 400]);
      expect(quotes.map((q) => q.json.code)).not.toContain('client_body_limit_reached');
      // The held bodies end at the request timeout; what they held is given back.
      expect((await Promise.all(holding)).map((r) => r.status)).toEqual([408, 408]);
      const after = await exchange(t.port, [bodyNeverSent(100_000), 200], HOSTILE);
      expect(after.status).not.toBe(429);
    });

    it('refuses new bodies 503 past the total, whoever sends them, until the held ones are done', async () => {
      // Four clients, each within its own share, together past the 400 kB total.
      const holding = ['127.0.0.3', '127.0.0.4', '127.0.0.5', '127.0.0.6'].map((from) =>
        exchange(t.port, [bodyNeverSent(95_000), 4000], from),
      );
      await new Promise((r) => setTimeout(r, 300));
      const past = await exchange(t.port, [bodyNeverSent(95_000), 4000], '127.0.0.7');
      expectRefusal(past, 503, 'body_limit_reached');
      expect(Number(past.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect((await Promise.all(holding)).map((r) => r.status)).toEqual([408, 408, 408, 408]);
      const quote = await signedRequest({
        port: t.port,
        partner,
        method: 'POST',
        path: QUOTE,
        body: quoteBody,
      });
      expect(quote.status).toBe(400);
    });
  });

  describe('a client that opens a connection per request, as fast as it can', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { MAX_NEW_CONNECTIONS_PER_CLIENT_PER_SECOND: '5' } });
    });
    afterAll(() => t.close());

    it('is refused at connect past its rate (bursts of twice as many), while a partner beside it connects', async () => {
      const health = `GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`;
      const burst = await Promise.all(Array.from({ length: 10 }, () => exchange(t.port, [health], HOSTILE)));
      expect(burst.map((r) => r.status)).toEqual(Array(10).fill(200));
      const refused = await exchange(t.port, [health], HOSTILE);
      expectRefusal(refused, 429, 'client_connection_limit_reached');
      expect(refused.json.message).toMatch(/opens more than 5 connections a second/);
      // The partner's address has a bucket of its own: its eight connections are all taken.
      const partners = await Promise.all(
        [0, 1, 2, 3, 4, 5, 6, 7].map(() =>
          signedRequest({ port: t.port, partner: PARTNERS.other, method: 'GET', path: PING }),
        ),
      );
      expect(partners.map((r) => r.status)).toEqual(Array(8).fill(200));
      // A fifth of a second later the hostile address may open one more.
      await new Promise((r) => setTimeout(r, 250));
      expect((await exchange(t.port, [health], HOSTILE)).status).toBe(200);
    });
  });

  describe('a client that stops reading', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        env: { HTTP_SEND_TIMEOUT_MS: '1500' },
      });
    });
    afterAll(() => t.close());

    it('is cut off once nothing of its answers leaves for HTTP_SEND_TIMEOUT_MS', async () => {
      const server = t.app.getHttpServer() as Server;
      const openConnections = () => new Promise<number>((r) => server.getConnections((_, n) => r(n)));
      // Pipelined requests for the OpenAPI document, never read: the answers fill the socket's buffers and stop.
      const socket = await openFrom(t.port, HOSTILE);
      socket.pause();
      socket.on('error', () => undefined);
      socket.write(`GET /openapi.json HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(400));
      await new Promise((r) => setTimeout(r, 500));
      expect(await openConnections()).toBe(1); // stuck writing to it
      // Nothing of it left for the send timeout (1.5 s here, checked each second): the server closed it.
      await new Promise((r) => setTimeout(r, 2500));
      expect(await openConnections()).toBe(0);
      socket.destroy();
      // The partner is served meanwhile.
      expect((await signedRequest({ port: t.port, partner, method: 'GET', path: PING })).status).toBe(200);
    });
  });
});
