import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

/**
 * A dev environment in small, run by supervise.int.spec.ts through tools/dev/supervise.js: a listening port and a
 * grandchild (`sleep`), like npm start's service and anvil chains. On SIGINT/SIGTERM it says which signal it got and
 * stops both; with `leave` it exits on its own at once, leaving the grandchild behind (a failed start).
 */
const mode = process.argv[2] ?? 'stay';
const grandchild = spawn('sleep', ['300'], { stdio: 'ignore' });
const server = createServer((_req, res) => res.end('ok'));
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`ready port ${port} worker ${process.pid} grandchild ${grandchild.pid}\n`);
  if (mode === 'leave') process.exit(1);
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
  process.on(signal, () => {
    process.stdout.write(`got ${signal}\n`);
    grandchild.kill('SIGTERM');
    server.close(() => process.exit(0));
  });
