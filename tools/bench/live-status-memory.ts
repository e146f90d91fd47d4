import 'reflect-metadata';
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ChainRegistry } from '@svc/chains';
import { loadAppConfig, portsModule } from '@svc/composition';
import { prepared } from '@svc/domain/attempt-fixture';
import { SqliteEventStore } from '@svc/event-store';
import { AttemptEventStreams, createHttpEdge, GatewayModule, LIVE_STATUS_LIMITS } from '@svc/gateway';
import { InProcessBroker, InProcessClient, NestMessageBus } from '@svc/messaging';
import { PartnerClient } from '@svc/partner-client';
import { createLogger, systemClock } from '@svc/platform';
import { createProviderAdapters } from '@svc/providers';

/**
 * Heap per open live status stream: the gateway (its HTTP edge, the event-store port on SQLite, no feature module)
 * in this process, started with `--expose-gc`; the clients (the partner SDK's followAttemptEvents) in a child
 * process, so their memory is not counted. Heap used after full GCs with N streams open, minus the same with none
 * open (after a warm-up that opened and closed N), divided by N; then again with all closed (nothing left behind). Each stream follows an attempt of its own (the domain fixture, three slices).
 *
 *   node --expose-gc tools/run-ts.js tools/bench/live-status-memory.ts [N=200]
 */
const PARTNER = {
  partnerId: 'memory-partner',
  secret: 'memory-partner-secret-0123',
  authVersion: 2 as const,
};

async function main(): Promise<void> {
  if (process.argv[2] === 'clients') return clients();
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  const count = Number(process.argv[2] ?? 200);

  const dir = mkdtempSync(join(tmpdir(), 'live-status-memory-'));
  const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  const attempts = Array.from({ length: count }, () => `at_${randomUUID().replaceAll('-', '').slice(0, 16)}`);
  for (const attemptId of attempts) {
    const data = { ...prepared, attemptId, partnerId: PARTNER.partnerId };
    await store.append(`attempt-${attemptId}`, [{ id: randomUUID(), type: 'AttemptPrepared', data }], {
      expectedRevision: 'no_stream',
    });
  }
  const app = await startGateway(store, count);
  const streams = app.get(AttemptEventStreams);
  const port = ((app.getHttpServer() as Server).address() as AddressInfo).port;

  const heap = (): number => {
    for (let i = 0; i < 4; i++) gc();
    return process.memoryUsage().heapUsed;
  };
  const openStreams = async (ids: string[]): Promise<ChildProcess> => {
    const child = spawn(
      process.execPath,
      [resolve('tools/run-ts.js'), resolve(__filename), 'clients', String(port), ...ids],
      { stdio: 'inherit' },
    );
    const deadline = Date.now() + 60_000;
    while (streams.openStreams < ids.length) {
      if (Date.now() > deadline)
        throw new Error(`only ${streams.openStreams} of ${ids.length} streams opened`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 500));
    return child;
  };
  const closeStreams = async (child: ChildProcess): Promise<void> => {
    child.kill();
    while (streams.openStreams > 0) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
  };

  // Warm-up: as many streams opened and closed first, so what a first use allocates once is in the baseline.
  await closeStreams(await openStreams(attempts));
  const none = heap();
  const child = await openStreams(attempts);
  const open = heap();
  await closeStreams(child);
  const after = heap();

  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
  process.stdout.write(
    [
      `streams open: ${count}`,
      `heap used, none open: ${kb(none)}; ${count} open: ${kb(open)}; closed again: ${kb(after)}`,
      `heap per open stream: ${kb((open - none) / count)}`,
    ].join('\n') + '\n',
  );
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}

/** The child: opens one stream per attempt id and holds them until it is killed. */
async function clients(): Promise<void> {
  const [, , , port, ...ids] = process.argv;
  const client = new PartnerClient({ baseUrl: `http://127.0.0.1:${port}`, ...PARTNER });
  for (const attemptId of ids) void client.followAttemptEvents(attemptId).next();
  await new Promise(() => undefined);
}

async function startGateway(store: SqliteEventStore, count: number) {
  const config = loadAppConfig({ LOG_LEVEL: 'silent' });
  const logger = createLogger({ level: 'silent', name: 'live-status-memory' });
  @Global()
  @Module({
    providers: [{ provide: LIVE_STATUS_LIMITS, useValue: { perPartner: count } }],
    exports: [LIVE_STATUS_LIMITS],
  })
  class LimitsModule {}
  @Module({
    imports: [
      portsModule({
        config,
        partners: [
          {
            ...PARTNER,
            callbackUrl: 'http://127.0.0.1:9/hooks',
            maxFeeBps: 300,
            allowedProviders: ['relay'],
            rateLimitPerMinute: 1_000_000,
            enabled: true,
          },
        ],
        store,
        bus: new NestMessageBus(new InProcessClient(new InProcessBroker())),
        chains: new ChainRegistry([]),
        providers: createProviderAdapters(config.providers),
        logger,
        clock: systemClock,
        readiness: [],
      }),
      GatewayModule.register(),
      LimitsModule,
    ],
  })
  class GatewayOnlyModule {}
  const app = await NestFactory.create(
    GatewayOnlyModule,
    createHttpEdge({
      logger,
      maxBodyBytes: config.gateway.maxBodyBytes,
      apiVersionHeader: true,
      limits: config.http.limits,
      unauthenticatedRateLimitPerMinute: config.http.unauthenticatedRateLimitPerMinute,
      trustProxy: config.http.trustProxy,
    }),
    { bodyParser: false, logger: false },
  );
  await app.listen(0, '127.0.0.1');
  return app;
}

void main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
