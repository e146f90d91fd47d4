import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type PartnerAuthConfig } from '@svc/auth';
import { createBareHandler } from './bare-handler';
import { BareStore } from './bare-store';

/**
 * The bench's bare baseline, a child process as the service is: a plain node:http server doing the same v2
 * verification and durable nonce write (createBareHandler). Reads PORT, HOST, BARE_DB (its SQLite file) and
 * PARTNERS_FILE (the service's partners), and prints the line the bench waits for.
 */
function main(): void {
  const partners = readPartners(required('PARTNERS_FILE'));
  const store = BareStore.open(required('BARE_DB'));
  const server = createServer(
    createBareHandler({ partners: new Map(partners.map((p) => [p.partnerId, p])), store }),
  );
  const host = process.env['HOST'] ?? '127.0.0.1';
  server.listen(Number(process.env['PORT'] ?? 0), host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    process.stdout.write(`bare baseline listening on http://${host}:${port}\n`);
  });
  process.once('SIGTERM', () => {
    server.closeAllConnections();
    server.close(() => {
      store.close();
      process.exit(0);
    });
  });
}

/**
 * What verification needs of the partners file (id, secret or secretEnv, auth version). Not the service's validating
 * loader: that one brings class-validator and the whole config module, which a bare server would not carry.
 */
function readPartners(file: string): PartnerAuthConfig[] {
  const { partners } = JSON.parse(readFileSync(file, 'utf8')) as {
    partners: { partnerId: string; secret?: string; secretEnv?: string; authVersion?: 1 | 2 }[];
  };
  return partners.map((p) => ({
    partnerId: p.partnerId,
    secret: p.secret ?? required(p.secretEnv ?? 'secretEnv'),
    authVersion: p.authVersion ?? 2,
  }));
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

main();
