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
const sandboxUser = Number(env['SANDBOX_USER'] ?? 0);
const wallet = env['SANDBOX_MANIFEST'] ? sandboxWallet(env['SANDBOX_MANIFEST'], sandboxUser) : undefined;
const backend = createPartnerBackend({
  client,
  partnerId,
  secret,
  processedEvents: new FileProcessedEventStore(join(dataDir, 'processed-webhooks.txt')),
  ...(wallet ? { sandboxWallet: wallet.pay } : {}),
});
const port = Number(env['EXAMPLE_PORT'] ?? 4000);
const server = createServer(backend);
// Port 4000 is also where `npm start` receives the demo partner's webhooks: say what to do, not a stack trace.
server.once('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EADDRINUSE') throw error;
  process.stderr.write(
    [
      `port ${port} on 127.0.0.1 is taken; most likely npm start is running, and its webhook receiver holds it (the demo`,
      `partner's callbackUrl is http://127.0.0.1:4000/webhooks). Either stop npm start, start this backend first and`,
      'npm start again (its receiver then leaves the port to this backend, which gets the webhooks), or run this backend',
      `on another port with EXAMPLE_PORT=4100 (it then gets no webhooks unless a partner's callbackUrl names that port).`,
      '',
    ].join('\n'),
  );
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  const { port: bound } = server.address() as AddressInfo;
  process.stdout.write(
    [
      `partner backend on http://127.0.0.1:${bound} as ${partnerId}`,
      wallet
        ? `SANDBOX wallet (anvil dev account ${sandboxUser} from ${env['SANDBOX_MANIFEST']}; sandbox only) on POST /sandbox/orders/{id}/pay`
        : 'no sandbox wallet (set SANDBOX_MANIFEST=.sandbox/manifest.json to enable it)',
      '',
    ].join('\n'),
  );
});
