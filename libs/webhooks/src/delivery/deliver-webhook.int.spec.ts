import { verifyWebhook } from '@svc/partner-client';
import { CallbackAddressPolicy } from './callback-address-policy';
import { deliverWebhook, type DeliverWebhookInput } from './deliver-webhook';
import { type LoopbackServer, refusedUrl, startLoopbackServer } from './loopback-server.test-helper';

// Vector computed with openssl, independently of libs/auth:
//   BODY='{"eventId":"evt_att_1_settled",...,"note":"café"}'   (the literal below, UTF-8)
//   printf '%s' "1767225600000.$BODY" | openssl dgst -sha256 -hmac 'whsec-delivery-test'
const BODY =
  '{"eventId":"evt_att_1_settled","event":"settled","occurredAt":"2026-01-01T00:00:00.000Z","attemptId":"att_1","partnerId":"partner-a","status":"settled","note":"café"}';
const SIGNATURE = '62c7ea402ac3a4b785c9732076b3e24e0e4b921a3c557a0de643a452542ee9aa';
const NOW = 1767225600000;
const SECRET = 'whsec-delivery-test';

let servers: LoopbackServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(reply: Parameters<typeof startLoopbackServer>[0]): Promise<LoopbackServer> {
  const server = await startLoopbackServer(reply);
  servers.push(server);
  return server;
}

function deliver(url: string, change: Partial<DeliverWebhookInput> = {}) {
  return deliverWebhook({
    url,
    partnerId: 'partner-a',
    secret: SECRET,
    eventId: 'evt_att_1_settled',
    body: BODY,
    now: () => NOW,
    ...change,
  });
}

describe('deliverWebhook', () => {
  describe('where it may connect (N-M5)', () => {
    const publicOnly = new CallbackAddressPolicy([]);

    it.each([
      ['an address literal', (url: string) => url],
      ['a name that resolves to loopback', (url: string) => url.replace('127.0.0.1', 'localhost')],
      ['an IPv4-mapped IPv6 literal', (url: string) => url.replace('127.0.0.1', '[::ffff:127.0.0.1]')],
    ])('given %s of a loopback receiver and no allowance, then nothing is sent', async (_label, aim) => {
      const server = await serve((res) => res.writeHead(204).end());

      const result = await deliver(aim(server.url), { addresses: publicOnly });

      expect(result).toEqual({
        kind: 'failure',
        status: null,
        error: 'address_not_allowed',
        retryAfterMs: null,
        durationMs: 0,
      });
      expect(server.received).toHaveLength(0);
    });

    it('given the loopback allowance (the default off production), then it is delivered', async () => {
      const server = await serve((res) => res.writeHead(204).end());
      expect((await deliver(server.url.replace('127.0.0.1', 'localhost'))).kind).toBe('success');
      expect(server.received).toHaveLength(1);
    });
  });

  it('POSTs the exact bytes with the spec headers, signed so that the partner verifier accepts them', async () => {
    const server = await serve((res) => res.writeHead(204).end());

    expect(await deliver(server.url)).toEqual({ kind: 'success', status: 204, durationMs: 0 });

    const [request] = server.received;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/hooks/service');
    expect(request.body.equals(Buffer.from(BODY, 'utf8'))).toBe(true);
    const sent = Object.fromEntries(
      request.rawHeaders.flatMap((value, i) => (i % 2 === 0 ? [[value, request.rawHeaders[i + 1]]] : [])),
    );
    expect(sent).toEqual({
      'X-Partner-Id': 'partner-a',
      'X-Timestamp': '1767225600000',
      'X-Signature': SIGNATURE,
      'X-Service-Event-Id': 'evt_att_1_settled',
      'X-Service-Api-Version': '1',
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(BODY)),
      Host: new URL(server.url).host,
      Connection: 'close',
    });
    expect(
      verifyWebhook(request.body, request.headers, { partnerId: 'partner-a', secret: SECRET, nowMs: NOW }),
    ).toMatchObject({ ok: true, event: { eventId: 'evt_att_1_settled', event: 'settled', note: 'café' } });
  });

  it('signs every try afresh with the time of that try', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    await deliver(server.url, { now: () => NOW });
    await deliver(server.url, { now: () => NOW + 7_200_000 });

    const [first, second] = server.received;
    expect(second.headers['x-timestamp']).toBe(String(NOW + 7_200_000));
    expect(second.headers['x-signature']).not.toBe(first.headers['x-signature']);
    const options = { partnerId: 'partner-a', secret: SECRET, nowMs: NOW + 7_200_000 };
    expect(verifyWebhook(second.body, second.headers, options).ok).toBe(true);
    expect(verifyWebhook(first.body, first.headers, options)).toEqual({
      ok: false,
      reason: 'timestamp_expired',
    });
  });

  it.each([200, 201, 202, 204, 299])('counts %i as delivered', async (status) => {
    const server = await serve((res) => res.writeHead(status).end());
    expect(await deliver(server.url)).toEqual({ kind: 'success', status, durationMs: 0 });
  });

  it('reports how long the try took on the injected clock', async () => {
    const server = await serve((res) => res.writeHead(200).end());
    let clock = NOW;
    const result = await deliver(server.url, { now: () => (clock += 40) - 40 });
    expect(result).toEqual({ kind: 'success', status: 200, durationMs: 40 });
  });

  it.each([400, 401, 404, 409, 500, 502])('treats %i as a failure without Retry-After', async (status) => {
    const server = await serve((res) => res.writeHead(status, { 'Retry-After': '7' }).end('nope'));
    expect(await deliver(server.url)).toEqual({
      kind: 'failure',
      status,
      error: `http_${status}`,
      retryAfterMs: null,
      durationMs: 0,
    });
  });

  it('reports 410 as gone', async () => {
    const server = await serve((res) => res.writeHead(410).end());
    expect(await deliver(server.url)).toEqual({ kind: 'gone', status: 410, durationMs: 0 });
  });

  it('does not follow a redirect: a 302 is a failure and its target is never called', async () => {
    const target = await serve((res) => res.writeHead(200).end());
    const server = await serve((res) => res.writeHead(302, { Location: target.url }).end());

    expect(await deliver(server.url)).toEqual({
      kind: 'failure',
      status: 302,
      error: 'http_302',
      retryAfterMs: null,
      durationMs: 0,
    });
    expect(server.received).toHaveLength(1);
    expect(target.received).toHaveLength(0);
  });

  it('reads Retry-After in seconds on a 429', async () => {
    const server = await serve((res) => res.writeHead(429, { 'Retry-After': '7' }).end());
    expect(await deliver(server.url)).toMatchObject({ kind: 'failure', status: 429, retryAfterMs: 7000 });
  });

  it('reads Retry-After as an HTTP date on a 503', async () => {
    const server = await serve((res) =>
      res.writeHead(503, { 'Retry-After': 'Thu, 01 Jan 2026 00:02:00 GMT' }).end(),
    );
    expect(await deliver(server.url)).toMatchObject({ kind: 'failure', status: 503, retryAfterMs: 120_000 });
  });

  it('ignores an unreadable Retry-After', async () => {
    const server = await serve((res) => res.writeHead(503, { 'Retry-After': 'later' }).end());
    expect(await deliver(server.url)).toMatchObject({ kind: 'failure', status: 503, retryAfterMs: null });
  });

  it('gives up with a timeout when the receiver never answers', async () => {
    const server = await serve(() => undefined);
    const started = Date.now();
    const result = await deliver(server.url, { now: Date.now, timeoutMs: 200 });

    expect(result).toMatchObject({ kind: 'failure', status: null, error: 'timeout', retryAfterMs: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(190);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.received).toHaveLength(1);
  });

  it('gives up with a timeout when the body stalls after a 200', async () => {
    const server = await serve((res) => {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('{"partial":');
    });
    const started = Date.now();
    const result = await deliver(server.url, { now: Date.now, timeoutMs: 200 });

    expect(result).toMatchObject({ kind: 'failure', status: 200, error: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads an endless response body only up to the limit, then hangs up', async () => {
    let written = 0;
    let hungUp = false;
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const server = await serve((res) => {
      res.writeHead(200);
      res.on('close', () => (hungUp = true));
      const pump = (): void => {
        while (!res.destroyed && written < 1024 ** 3) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    });

    const result = await deliver(server.url, { timeoutMs: 5000 });

    expect(result).toEqual({ kind: 'success', status: 200, durationMs: 0 });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hungUp).toBe(true);
    expect(written).toBeLessThan(64 * 1024 ** 2);
  });

  it('is a failure when the connection drops before an answer', async () => {
    const server = await serve((res) => res.socket?.destroy());
    expect(await deliver(server.url)).toMatchObject({ kind: 'failure', status: null, error: 'ECONNRESET' });
  });

  it('is a failure when the connection is refused, and the error does not carry the secret', async () => {
    const result = await deliver(await refusedUrl());
    expect(result).toEqual({
      kind: 'failure',
      status: null,
      error: 'ECONNREFUSED',
      retryAfterMs: null,
      durationMs: 0,
    });
    expect(JSON.stringify(result)).not.toContain(SECRET);
  });

  it.each(['not a url', 'ftp://127.0.0.1/hooks', `http://partner-a:${SECRET}@[::1`])(
    'refuses the URL %p without sending',
    async (url) => {
      const result = await deliver(url);
      expect(result).toEqual({
        kind: 'failure',
        status: null,
        error: 'invalid_url',
        retryAfterMs: null,
        durationMs: 0,
      });
      expect(JSON.stringify(result)).not.toContain(SECRET);
    },
  );
});
