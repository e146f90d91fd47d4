import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { fetchJson } from './fetch-json';
import { ProviderHttp } from './provider-http';

/** A real loopback server that counts the TCP connections it accepts. */
async function startServer(handle: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  let connections = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A signal per call, as fetchJson gives each (AbortSignal.any): one shared by 40 would trip Node's listener warning. */
const never = () => new AbortController().signal;

describe('ProviderHttp: one provider’s keep-alive pool over node:http', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  let http: ProviderHttp;

  beforeAll(async () => {
    server = await startServer((req, body, res) => {
      const path = req.url ?? '/';
      if (path === '/redirect') return void res.writeHead(302, { location: '/elsewhere' }).end();
      if (path === '/big') return void res.writeHead(200, { 'content-length': '4096' }).end('x'.repeat(4096));
      if (path === '/big-chunked') {
        res.writeHead(200);
        for (let i = 0; i < 8; i += 1) res.write('y'.repeat(512));
        return void res.end();
      }
      if (path === '/stall') return void res.writeHead(200).write('{"partial":');
      if (path === '/hang') return;
      if (path === '/drop') return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json', 'retry-after': '3' });
      res.end(JSON.stringify({ method: req.method, path, body, type: req.headers['content-type'] ?? null }));
    });
  });
  beforeEach(() => (http = new ProviderHttp()));
  afterEach(() => http.close());
  afterAll(() => server.close());

  const get = (path: string, signal = never()) =>
    http.send({ method: 'GET', url: server.origin + path, headers: {}, signal });

  it('sends calls one after the other over a single kept-alive connection', async () => {
    const before = server.connections();
    for (let i = 0; i < 20; i += 1) {
      const answer = await get(`/seq/${i}`);
      expect(JSON.parse((await answer.text(1024))!)).toMatchObject({ method: 'GET', path: `/seq/${i}` });
    }
    expect(server.connections() - before).toBe(1);
  });

  it('answers many calls in flight at once, each with its own body, and reuses the pool for the next wave', async () => {
    const wave = () =>
      Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const body = JSON.stringify({ i, text: 'é'.repeat(i) });
          const answer = await http.send({
            method: 'POST',
            url: `${server.origin}/post/${i}`,
            headers: { 'content-type': 'application/json' },
            body,
            signal: never(),
          });
          expect(answer.status).toBe(200);
          expect(answer.header('retry-after')).toBe('3');
          return JSON.parse((await answer.text(4096))!) as { path: string; body: string; type: string };
        }),
      );
    const before = server.connections();
    const first = await wave();
    first.forEach((echo, i) => {
      expect(echo.path).toBe(`/post/${i}`);
      expect(JSON.parse(echo.body)).toEqual({ i, text: 'é'.repeat(i) });
      expect(echo.type).toBe('application/json');
    });
    const opened = server.connections() - before;
    expect(opened).toBeLessThanOrEqual(40);
    await wave();
    expect(server.connections() - before).toBe(opened);
  });

  it('does not follow a redirect: the 3xx is the answer', async () => {
    const answer = await get('/redirect');
    expect(answer.status).toBe(302);
    expect(answer.header('location')).toBe('/elsewhere');
    expect(answer.header('x-absent')).toBeNull();
  });

  it('stops reading a body past the limit, declared or not', async () => {
    expect(await (await get('/big')).text(1000)).toBeNull();
    expect(await (await get('/big-chunked')).text(1000)).toBeNull();
    expect(await (await get('/big')).text(4096)).toHaveLength(4096);
  });

  it('rejects when the signal aborts before the answer or in the middle of the body', async () => {
    const early = new AbortController();
    const pending = get('/hang', early.signal);
    early.abort();
    await expect(pending).rejects.toThrow();
    const late = new AbortController();
    const stalled = await get('/stall', late.signal);
    const reading = stalled.text(1024);
    late.abort();
    await expect(reading).rejects.toThrow();
  });

  it('through fetchJson: JSON, a dropped connection and a hang come back as results, never thrown', async () => {
    const call = (path: string, timeoutMs = 2000) =>
      fetchJson(http, {
        method: 'POST',
        url: server.origin + path,
        body: { amount: '1' },
        signal: never(),
        timeoutMs,
        metric: { provider: 'relay', operation: 'provider_http_spec' },
      });
    await expect(call('/json')).resolves.toEqual({
      kind: 'json',
      status: 200,
      retryAfterMs: 3000,
      body: { method: 'POST', path: '/json', body: '{"amount":"1"}', type: 'application/json' },
    });
    await expect(call('/drop')).resolves.toMatchObject({ kind: 'network' });
    await expect(call('/hang', 100)).resolves.toEqual({ kind: 'timeout' });
    await expect(call('/stall', 100)).resolves.toEqual({ kind: 'timeout' });
  });
});
