import { PartnerClient } from './partner-client';
import { InvalidResourceIdError } from './invalid-resource-id.error';
import { type PartnerTestServer, startPartnerTestServer } from './partner-test-server.test-helper';

const partner = { partnerId: 'partner-v2', secret: 'secret-v2-0123456789', authVersion: 2 as const };
let server: PartnerTestServer;
let client: PartnerClient;
beforeEach(async () => {
  server = await startPartnerTestServer([partner]);
  client = new PartnerClient({ baseUrl: `${server.baseUrl}/prefix`, ...partner, retryBaseDelayMs: 5 });
});
afterEach(() => server.close());

const TX = `0x${'ab'.repeat(32)}`;

describe('PartnerClient: lookups and the webhook control plane (verified by libs/auth on loopback)', () => {
  it.each<[string, () => Promise<unknown>, string, string, string | null]>([
    [
      'searchAttempts',
      () => client.searchAttempts({ walletAddress: '0x1111111111111111111111111111111111111111', limit: 5 }),
      'POST',
      '/prefix/api/external/attempts/search',
      '{"walletAddress":"0x1111111111111111111111111111111111111111","limit":5}',
    ],
    [
      'transactionAttempt',
      () => client.transactionAttempt(8453, TX),
      'GET',
      `/prefix/api/external/transactions/8453/${TX}/attempt`,
      null,
    ],
    ['webhookEvents', () => client.webhookEvents(), 'GET', '/prefix/api/external/webhooks/events', null],
    [
      'webhookEvents after a cursor',
      () => client.webhookEvents('c_123'),
      'GET',
      '/prefix/api/external/webhooks/events/after/c_123',
      null,
    ],
    [
      'redeliverWebhook',
      () => client.redeliverWebhook('evt_1'),
      'POST',
      '/prefix/api/external/webhooks/redeliver/evt_1',
      '{}',
    ],
    [
      'recoverWebhooks',
      () => client.recoverWebhooks({ from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }),
      'POST',
      '/prefix/api/external/webhooks/recover',
      '{"from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z"}',
    ],
    [
      'recoverWebhooks, the next page',
      () =>
        client.recoverWebhooks({
          from: '2026-01-01T00:00:00Z',
          to: '2026-01-02T00:00:00Z',
          continuation: 'eyJ2IjoxfQ',
        }),
      'POST',
      '/prefix/api/external/webhooks/recover',
      '{"from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z","continuation":"eyJ2IjoxfQ"}',
    ],
  ])('%s sends a request the server verifies', async (_name, call, method, url, body) => {
    await expect(call()).resolves.toMatchObject({ status: 200 });
    const [request] = server.received;
    expect(request).toMatchObject({ method, url, auth: { ok: true, path: url } });
    expect(request.body.toString('utf8')).toBe(body ?? '');
    expect(request.headers['idempotency-key'] !== undefined).toBe(method === 'POST');
  });

  it('refuses ids it could not have been given, sending nothing', async () => {
    await expect(client.transactionAttempt(1, '0xab/../x')).rejects.toThrow(InvalidResourceIdError);
    await expect(client.webhookEvents('a%2Fb')).rejects.toThrow(InvalidResourceIdError);
    expect(server.received).toHaveLength(0);
  });

  it('fetches /openapi.json unsigned, under the base path', async () => {
    // This test server refuses unsigned requests (401); the gateway serves the document to anyone.
    await client.openApiDocument();
    const [request] = server.received;
    expect(request).toMatchObject({ method: 'GET', url: '/prefix/openapi.json' });
    expect(request.headers['x-signature']).toBeUndefined();
  });
});
