import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EventStoreDbEventStore, SqliteEventStore } from '@svc/event-store';
import { probeContainerRuntime, type RunningEventStoreDb, startEventStoreDb } from '@svc/testing';
import { runCli } from './run-cli';
import { type AuditedAttempts, FLOW_MARKUP_BPS, runAuditedFlows } from './testing/sandbox-flows';
import { type SandboxService, startSandboxService } from './testing/sandbox-service';

const runtime = probeContainerRuntime();
if (!runtime.available) {
  process.stdout.write(`audit on EventStoreDB: skipped, no container runtime (${runtime.reason})\n`);
}

/**
 * The audit run on the SQLite store the standalone service wrote while the sandbox drove five attempts through the
 * public API (settled, refunded, failed, expired, partially settled), then on a copy of that store with one stored
 * event tampered with. One service and one set of flows for the whole file (about 40 s of the run).
 */
describe('audit on stores the service wrote on the provider sandbox', () => {
  let service: SandboxService;
  let attempts: AuditedAttempts;
  let tampered: string;

  beforeAll(async () => {
    service = await startSandboxService();
    const users = service.sandbox.manifest.wallets.users.map((u) => privateKeyToAccount(u.privateKey as Hex));
    attempts = await runAuditedFlows(service.driver, users);
    tampered = mkdtempSync(join(tmpdir(), 'audit-tampered-'));
  }, 110_000);
  afterAll(async () => {
    await service?.stop();
    if (tampered) rmSync(tampered, { recursive: true, force: true });
  });

  async function audit(argv: string[], env: Record<string, string> = service.env) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, env, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
    return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- the audit's JSON, asserted field by field
  }

  it.each([
    ['settled', 'settled', ['LegSettled', 'TransactionClaimed', 'WebhookDelivered', 'IntentQuoted']],
    ['refunded', 'failed', ['LegFailed', 'AttemptFailed', 'WebhookDelivered']],
    ['failed', 'failed', ['SourceTransactionReverted', 'LegFailed']],
    ['expired', 'expired', ['AttemptExpired', 'IntentPrepared']],
    ['partial', 'failed', ['LegSettled', 'LegFailed']],
  ] as const)(
    '%s: history, snapshot equal to the status use case and to the live GET, chain agrees',
    async (name, status, types) => {
      const result = await audit([
        'attempt',
        attempts[name],
        '--json',
        '--verify-chain',
        '--api',
        service.serviceUrl,
      ]);
      const report = result.json();
      expect(result.code).toBe(0);
      expect(report.snapshot.status).toBe(status);
      expect(report.statusCheck).toMatchObject({ equal: true, differences: [] });
      expect(report.liveCheck).toMatchObject({ httpStatus: 200, equal: true });
      expect(report.chainCheck.mismatches).toEqual([]);
      expect(report.events.map((e: { type: string }) => e.type)).toEqual(expect.arrayContaining([...types]));
      expect(report.requests.map((r: { request: string }) => r.request)).toEqual(
        expect.arrayContaining(['quote', 'prepare']),
      );
    },
  );

  it('reads again every transaction a settled attempt relies on, and each refund', async () => {
    const settled = (await audit(['attempt', attempts.settled, '--json', '--verify-chain'])).json();
    const outcomes = settled.chainCheck.checks.map(
      (c: { role: string; outcome: string }) => `${c.role}:${c.outcome}`,
    );
    // A source transaction the service classified is held to its facts (ok); one it never needed is shown (info).
    expect(outcomes).toContain('fill:ok');
    expect(outcomes.every((o: string) => /^(source:(ok|info)|fill:ok)$/.test(o))).toBe(true);
    const refunded = (await audit(['attempt', attempts.refunded, '--json', '--verify-chain'])).json();
    expect(refunded.chainCheck.checks).toContainEqual(
      expect.objectContaining({ role: 'refund', outcome: 'ok' }),
    );
  });

  it('verify --all: every attempt checked, a summary, exit 0', async () => {
    const result = await audit(['verify', '--all', '--json']);
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result.code).toBe(0);
    expect(summary).toMatchObject({
      kind: 'summary',
      attempts: 5,
      statusDifferences: 0,
      chainMismatches: 0,
      byStatus: { settled: 1, failed: 3, expired: 1 },
      overdue: { evidence: 0, tracking: 0 },
    });
  });

  it('fees: owed on what settled only, the quote-time markup reconciled', async () => {
    const hour = 3_600_000;
    const from = new Date(Date.now() - hour).toISOString();
    const to = new Date(Date.now() + hour).toISOString();
    const result = await audit(['fees', '--partner', 'audit-partner', '--from', from, '--to', to, '--csv']);
    const [header, ...rows] = result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(','));
    const row = (attemptId: string, sliceId: string) =>
      Object.fromEntries(
        header.map((h, i) => [h, rows.find((r) => r[0] === attemptId && r[3] === sliceId)![i]]),
      );
    const markup = (input: number) => String(Math.floor((input * FLOW_MARKUP_BPS) / 10_000));
    expect(result.code).toBe(0);
    expect(row(attempts.settled, 't0:0')).toMatchObject({
      owing: 'owed',
      basis: 'exact',
      markupOwedRaw: markup(5_000_000),
      markupRecordedRaw: markup(5_000_000),
    });
    expect(row(attempts.refunded, 't0:0')).toMatchObject({
      owing: 'nothing',
      markupOwedRaw: '0',
      markupRecordedRaw: markup(6_000_901),
      markupRecordedOwedRaw: '0',
    });
    expect(row(attempts.partial, 't0:0')).toMatchObject({ owing: 'owed', markupOwedRaw: markup(7_000_000) });
    expect(row(attempts.partial, 't0:1')).toMatchObject({ owing: 'nothing', markupOwedRaw: '0' });
    expect(row(attempts.expired, 't0:0')).toMatchObject({ owing: 'nothing', serviceFeeRaw: '0' });
    const total = rows.find((r) => r[0] === 'TOTAL' && r[8] === '1')!;
    expect(total[header.indexOf('markupOwedRaw')]).toBe(
      String(Number(markup(5_000_000)) + Number(markup(7_000_000))),
    );
  });

  it('a store tampered with fails: the chain and the live service contradict the edited amount, the fees the edited markup', async () => {
    const original = (await audit(['attempt', attempts.settled, '--json'])).json();
    const delivered: string = original.snapshot.perChainStatus[0].legs[0].settledAmount;
    const dataDir = join(tampered, 'data');
    mkdirSync(dataDir);
    const file = join(dataDir, 'events.sqlite');
    const source = new Database(join(service.dataDir, 'events.sqlite'), { readonly: true });
    await source.backup(file);
    source.close();
    const db = new Database(file);
    const edited = db
      .prepare(
        "UPDATE events SET data = json_set(data, '$.settledAmount', '4000000') WHERE stream_id = ? AND type = 'LegSettled'",
      )
      .run(`attempt-${attempts.settled}`);
    const markupEdited = db
      .prepare(
        "UPDATE events SET data = json_set(data, '$.fees.markupOwed[0].rawAmount', '99999') WHERE stream_id = ? AND type = 'IntentQuoted'",
      )
      .run(`intent-${original.intentSessionId as string}`);
    db.close();
    expect([edited.changes, markupEdited.changes]).toEqual([1, 1]);
    const env = { ...service.env, DATA_DIR: dataDir };
    const before = fingerprint(file);

    const one = await audit(
      ['attempt', attempts.settled, '--json', '--verify-chain', '--api', service.serviceUrl],
      env,
    );
    expect(one.code).toBe(1);
    expect(one.json().chainCheck.mismatches).toEqual([
      expect.objectContaining({
        role: 'fill',
        fact: 'amount to recipient',
        recorded: '4000000 (exact)',
        onChain: `${delivered} (exact)`,
      }),
    ]);
    expect(one.json().liveCheck.differences).toContainEqual({
      path: 'perChainStatus[0].legs[0].settledAmount',
      expected: '4000000',
      actual: delivered,
    });
    const all = await audit(['verify', '--all'], env);
    expect(all.code).toBe(1);
    expect(all.stdout).toContain(`MISMATCH   ${attempts.settled} fill chain 8453`);
    expect(all.stdout).toContain('result: 1 finding(s)');
    const fees = await audit(
      ['fees', '--partner', 'audit-partner', '--from', '2000-01-01', '--to', '2100-01-01'],
      env,
    );
    expect(fees.code).toBe(1);
    expect(fees.stdout).toContain(
      `t0:0: markup recorded 99999, its input and rates give ${(5_000_000 * FLOW_MARKUP_BPS) / 10_000}`,
    );
    // Every audit above read the copy: its bytes are as the tamperer left them.
    expect(fingerprint(file)).toBe(before);
  });

  it('refuses a store it cannot open read-only, and creates nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'audit-empty-'));
    try {
      const missing = await audit(['verify', '--all', '--store-only'], { DATA_DIR: empty });
      expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining('refused: cannot open')]);
      expect(readdirSync(empty)).toEqual([]);
      const memory = await audit(['verify', '--all', '--store-only'], { EVENT_STORE: 'memory' });
      expect([memory.code, memory.stderr]).toEqual([2, expect.stringContaining('EVENT_STORE=memory')]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  // The same store's streams copied into a throwaway EventStoreDB. Skipped where no container runtime answers
  // (EventStoreDB runs in a container; the probe's reason is printed at collection).
  (runtime.available ? describe : describe.skip)('on EventStoreDB', () => {
    let esdb: RunningEventStoreDb | undefined;
    let env: Record<string, string>;

    beforeAll(async () => {
      esdb = await startEventStoreDb();
      const source = SqliteEventStore.openReadOnly({ file: join(service.dataDir, 'events.sqlite') });
      const target = EventStoreDbEventStore.fromConnectionString(esdb.connectionString);
      try {
        const streams = ['attempt-', 'intent-', 'webhook-', 'txclaim-'];
        for (const e of await source.readAll({ streamPrefixes: streams })) {
          const event = { id: e.id, type: e.type, data: e.data, metadata: e.metadata };
          await target.append(e.streamId, [event], { expectedRevision: 'any' });
        }
      } finally {
        await source.close();
        await target.close();
      }
      env = { ...service.env, EVENT_STORE: 'eventstoredb', EVENTSTOREDB_URL: esdb.connectionString };
    }, 180_000);
    afterAll(async () => {
      await esdb?.stop();
    });

    it('replays each attempt and verifies them all, as on SQLite', async () => {
      for (const attemptId of Object.values(attempts)) {
        const result = await audit(['attempt', attemptId, '--json', '--verify-chain'], env);
        expect([attemptId, result.code, result.json().statusCheck.equal]).toEqual([attemptId, 0, true]);
      }
      const all = await audit(['verify', '--all'], env);
      expect([all.code, all.stdout]).toEqual([0, expect.stringContaining('attempts checked: 5')]);
    });
  });
});

/** The store file's bytes, and that its write-ahead log holds nothing (a read-only reader never writes one). */
function fingerprint(file: string): string {
  const wal = `${file}-wal`;
  const walBytes = existsSync(wal) ? statSync(wal).size : 0;
  return `${createHash('sha256').update(readFileSync(file)).digest('hex')} wal=${walBytes}`;
}
