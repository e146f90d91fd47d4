import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PartnerClient } from '@svc/partner-client';
import { rawRequest, repoRoot, spawnEntry, waitForLine } from '@svc/testing';

const DEV_PARTNER = {
  partnerId: 'demo-partner',
  secret: 'dev-only-secret-do-not-use-in-production',
} as const;

/** The series names of a Prometheus exposition (`name{labels} value` or `name value`), comments left out. */
function seriesNames(exposition: string): string[] {
  return [
    ...new Set(
      exposition
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => /^[^{\s]+/.exec(line)![0]),
    ),
  ];
}

/**
 * The standalone service as `npm run service` starts it, a real process on loopback: what Prometheus scrapes from its
 * ops port, and what a rolling update sees of it from SIGTERM to its exit.
 */
describe('the standalone service process', () => {
  let dir: string;
  let child: ChildProcess;
  const lines: string[] = [];
  let url: string;
  let opsUrl: string;
  let exited: Promise<number | null>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'service-process-'));
    child = spawnEntry(
      'apps/standalone/src/main.ts',
      {
        ...process.env,
        PORT: '0',
        OPS_PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dir,
        LOG_LEVEL: 'info',
        SERVICE_FEE_RECIPIENT: '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720',
        PARTNERS_FILE: join(repoRoot, 'config', 'partners.dev.json'),
      },
      (line) => lines.push(line),
    );
    exited = new Promise((resolve) => child.once('exit', resolve));
    url = (await waitForLine(child, lines, /listening on (http:\/\/\S+)/, 45_000))[1]!;
    opsUrl = (await waitForLine(child, lines, /probes and metrics (http:\/\/\S+)/, 5_000))[1]!;
  }, 60_000);

  afterAll(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  const client = (fetchFn: typeof fetch = fetch) =>
    new PartnerClient({ baseUrl: url, ...DEV_PARTNER, authVersion: 2, maxRetries: 0, fetch: fetchFn });

  it("/metrics carries prom-client's Node and process series, and every series the intent_ prefix", async () => {
    expect((await client().ping()).status).toBe(200);
    const response = await fetch(`${opsUrl}/metrics`);
    expect(response.status).toBe(200);
    const names = seriesNames(await response.text());
    expect(names).toEqual(
      expect.arrayContaining([
        'intent_process_cpu_seconds_total',
        'intent_process_resident_memory_bytes',
        'intent_nodejs_heap_size_used_bytes',
        'intent_nodejs_eventloop_lag_seconds',
        'intent_http_request_duration_seconds_count',
      ]),
    );
    expect(names.filter((n) => !n.startsWith('intent_'))).toEqual([]);
  });

  it('on SIGTERM, /readyz answers 503 (draining) while an in-flight request completes 200, then exits 0', async () => {
    // A search whose body arrives in two halves: the request is in flight, its handler not yet run, until released.
    let firstHalfSent!: () => void;
    const sent = new Promise<void>((resolve) => (firstHalfSent = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slowBody: typeof fetch = (input, init) => {
      const body = Buffer.from(init!.body as Buffer);
      const half = Math.floor(body.length / 2);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(body.subarray(0, half));
          firstHalfSent();
          await released;
          controller.enqueue(body.subarray(half));
          controller.close();
        },
      });
      return fetch(input, { ...init, body: stream, duplex: 'half' });
    };
    const search = client(slowBody).searchAttempts({
      walletAddress: '0x1111111111111111111111111111111111111111',
      limit: 5,
    });
    await sent;
    await new Promise((r) => setTimeout(r, 300));

    child.kill('SIGTERM');
    let readiness: { status: number; text: string } | undefined;
    for (let i = 0; i < 50; i++) {
      const ready = await rawRequest({ port: Number(new URL(opsUrl).port), method: 'GET', path: '/readyz' });
      readiness = { status: ready.status, text: ready.text };
      if (ready.status === 503) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readiness).toEqual({
      status: 503,
      text: expect.stringContaining('"shutdown":"draining"') as string,
    });
    expect(child.exitCode).toBeNull();

    release();
    const response = await search;
    expect({ status: response.status, body: response.body }).toMatchObject({
      status: 200,
      body: { attempts: [] },
    });
    expect(await exited).toBe(0);
    expect(lines.join('\n')).not.toMatch(/shutdown failed/);
  }, 30_000);
});
