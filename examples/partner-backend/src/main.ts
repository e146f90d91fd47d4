import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { FileProcessedEventStore, PartnerClient, FileIdempotencyStore } from '@intent-service/partner-client';
import { createPartnerBackend } from './partner-backend';
import { sandboxWallet } from './sandbox-wallet';

/**
 * `npm run example:partner-backend`: the example partner backend, configured by its environment (see its
 * README). Defaults match `npm start`'s demo partner, whose callback URL is http://127.0.0.1:4000/webhooks.
 */
const env = process.env;
const partnerId = env['PARTNER_ID'] ?? 'demo-partner';
const secret = env['PARTNER_SECRET'] ?? 'dev-only-secret-do-not-use-in-production';
const dataDir = env['EXAMPLE_DATA_DIR'] ?? '.partner-backend';
const client = new PartnerClient({
  baseUrl: env['SERVICE_URL'] ?? 'http://127.0.0.1:3000',
  partnerId,
  secret,
  authVersion: env['PARTNER_AUTH_VERSION'] === '1' ? 1 : 2,
  idempotencyStore: new FileIdempotencyStore(join(dataDir, 'idempotency.json')),
});
const wallet = env['SANDBOX_MANIFEST'] ? sandboxWallet(env['SANDBOX_MANIFEST']) : undefined;
const backend = createPartnerBackend({
  client,
  partnerId,
  secret,
  processedEvents: new FileProcessedEventStore(join(dataDir, 'processed-webhooks.txt')),
  ...(wallet ? { sandboxWallet: wallet.pay } : {}),
});
const port = Number(env['EXAMPLE_PORT'] ?? 4000);
const server = createServer(backend).listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address() as AddressInfo;
  process.stdout.write(
    [
      `partner backend on http://127.0.0.1:${bound} as ${partnerId}`,
      wallet
        ? `SANDBOX wallet (anvil dev account 0 from ${env['SANDBOX_MANIFEST']}; sandbox only) on POST /sandbox/orders/{id}/pay`
        : 'no sandbox wallet (set SANDBOX_MANIFEST=.sandbox/manifest.json to enable it)',
      '',
    ].join('\n'),
  );
});
