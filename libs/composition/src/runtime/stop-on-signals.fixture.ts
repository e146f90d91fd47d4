import 'reflect-metadata';
import { createServer } from 'node:http';
import { createLogger } from '@svc/platform';
import { stopOnSignals } from './stop-on-signals';

// What an app's main does (apps/standalone/src/main.ts, runDistributedApp): a server, stopped on signals. Run by
// stop-on-signals.int.spec.ts.
const logger = createLogger({ level: 'info', name: 'fixture' });
const server = createServer((_req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => {
  stopOnSignals(logger, async () => {
    // As the standalone's stop does: the listener first, then the rest, which takes a while (the second signal
    // arrives meanwhile).
    await new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve())));
    await new Promise((r) => setTimeout(r, 500));
  });
  process.stdout.write('ready\n');
});
