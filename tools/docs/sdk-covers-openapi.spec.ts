import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PartnerClient } from '@intent-service/partner-client';

const openapi = JSON.parse(readFileSync(join(__dirname, '..', '..', 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};

/** How the SDK calls each operation of the published API. A new operation fails this spec until it is added. */
const CALLS: Record<string, (c: PartnerClient) => Promise<unknown> | AsyncGenerator<unknown>> = {
  'GET /api/external/ping': (c) => c.ping(),
  'POST /api/external/intents/quote': (c) => c.quote({}),
  'POST /api/external/intents/{intentSessionId}/prepare': (c) => c.prepare('is_1'),
  'POST /api/external/attempts/{attemptId}/submitted': (c) => c.submitted('at_1', {}),
  'GET /api/external/attempts/{attemptId}/status': (c) => c.status('at_1'),
  'POST /api/external/attempts/search': (c) => c.searchAttempts({}),
  'GET /api/external/transactions/{chainId}/{txHash}/attempt': (c) => c.transactionAttempt(1, '0xab'),
  'GET /api/external/webhooks/events': (c) => c.webhookEvents(),
  'GET /api/external/webhooks/events/after/{cursor}': (c) => c.webhookEvents('cur_1'),
  'POST /api/external/webhooks/redeliver/{eventId}': (c) => c.redeliverWebhook('ev_1'),
  'POST /api/external/webhooks/recover': (c) => c.recoverWebhooks({ from: 'a', to: 'b' }),
  'GET /api/external/attempts/{attemptId}/events': (c) => c.followAttemptEvents('at_1'),
};

const operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
  Object.keys(item)
    .filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k))
    .map((method) => `${method.toUpperCase()} ${path}`),
);

describe('the partner SDK covers every operation of docs/openapi.json', () => {
  let server: Server;
  let client: PartnerClient;
  const seen: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      // A final refusal: the SDK neither retries it nor (for the stream) reconnects.
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"invalid_request_body"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    client = new PartnerClient({ baseUrl, partnerId: 'p', secret: 'secret-0123456789', authVersion: 2 });
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('has a call for each operation, and none for an operation that does not exist', () => {
    expect(operations.length).toBeGreaterThan(5);
    expect(Object.keys(CALLS).sort()).toEqual([...operations].sort());
  });

  it.each(Object.entries(CALLS))('%s: the SDK sends that method and path', async (operation, call) => {
    seen.length = 0;
    const result = call(client);
    if (Symbol.asyncIterator in result) await result.next().catch(() => undefined);
    else await result;
    const [method, template] = operation.split(' ') as [string, string];
    const pattern = new RegExp(`^${method} ${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    expect(seen).toEqual([expect.stringMatching(pattern)]);
  });
});
