import { sendHostileTraffic } from '@svc/testing';

/**
 * The abuse test's hostile client as a process of its own (libs/testing/src/abuse/hostile-traffic.ts says what it
 * sends): `node tools/run-ts.js tools/abuse/hostile-client.ts --port P [--host 127.0.0.1] [--from 127.0.0.2]
 * [--count 10000] [--concurrency 12] [--slow-for-ms 12000] [--partner partner-v2]`. Prints one JSON line of
 * HostileFigures when done.
 */
function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
}

void sendHostileTraffic({
  port: Number(argument('port')),
  host: argument('host') ?? '127.0.0.1',
  from: argument('from') ?? '127.0.0.2',
  count: Number(argument('count') ?? 10_000),
  concurrency: Number(argument('concurrency') ?? 12),
  slowForMs: Number(argument('slow-for-ms') ?? 12_000),
  claimedPartnerId: argument('partner') ?? 'partner-v2',
}).then((figures) => process.stdout.write(`${JSON.stringify(figures)}\n`));
