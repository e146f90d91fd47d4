import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { erc20Abi, type Hex, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { EventStoreDbEventStore, SqliteEventStore } from '@svc/event-store';
import { probeContainerRuntime, type RunningEventStoreDb, startEventStoreDb } from '@svc/testing';
import { runCli } from './run-cli';
import {
  type AuditedAttempts,
  type BatchedAttempts,
  FLOW_MARKUP_BPS,
  runAuditedFlows,
  runBatchedFlow,
} from './testing/sandbox-flows';
import { type SandboxService, startSandboxService } from './testing/sandbox-service';

const runtime = probeContainerRuntime();
if (!runtime.available) {
  process.stdout.write(`audit on EventStoreDB: skipped, no container runtime (${runtime.reason})\n`);
}

/**
 * The audit run on the SQLite store the standalone service wrote while the sandbox drove five attempts through the
 * public API (settled, refunded, failed, expired, partially settled), then on a copy of that store with one stored
 * event tampered with. One service and one set of flows for the whole file (about 70 s of the run: the expired
 * attempt waits out the shortest evidence window, 60 s).
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
  }, 150_000);
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

  it('--verify-chain without CHAINS_FILE reads the running sandbox’s chains, and says what to do when none runs', async () => {
    const { CHAINS_FILE: chainsFile, ...withoutChains } = service.env;
    // npm start writes the service's CHAINS_FILE as chains.json beside the sandbox manifest (SANDBOX_MANIFEST_DIR).
    const found = await audit(['attempt', attempts.settled, '--json', '--verify-chain'], {
      ...withoutChains,
      SANDBOX_MANIFEST_DIR: dirname(chainsFile),
    });
    expect(found.code).toBe(0);
    expect(found.stderr).toContain(`chains: ${chainsFile} (the running sandbox's`);
    expect(found.json().chainCheck.checks).toContainEqual(
      expect.objectContaining({ role: 'fill', outcome: 'ok' }),
    );

    const empty = mkdtempSync(join(tmpdir(), 'audit-no-sandbox-'));
    try {
      const none = await audit(['verify', '--all'], { ...withoutChains, SANDBOX_MANIFEST_DIR: empty });
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('set CHAINS_FILE, or run it while npm start runs');
      expect(none.stderr).toContain(`no sandbox chains file at ${join(empty, 'chains.json')}`);
      // A chains file an earlier sandbox run left behind: its chains no longer answer.
      writeFileSync(
        join(empty, 'chains.json'),
        JSON.stringify({
          chains: [{ chainId: 1, name: 'Ethereum', rpcUrl: 'http://127.0.0.1:9', nativeSymbol: 'ETH' }],
        }),
      );
      const stale = await audit(['verify', '--all'], { ...withoutChains, SANDBOX_MANIFEST_DIR: empty });
      expect(stale.code).toBe(2);
      expect(stale.stderr).toContain('the sandbox is not running');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
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

  // Last in this file: the tests above count the five attempts of runAuditedFlows, and this adds two.
  describe('a batched fill (issue 24 item 1)', () => {
    let batched: BatchedAttempts;
    let legs: { attemptId: string; sliceId: string; amount: string; depositKey: string; fill: string }[];
    /** What the fill transaction gave the recipient in all: every leg's share. */
    let wholeSum: bigint;

    beforeAll(async () => {
      const users = service.sandbox.manifest.wallets.users.map((u) =>
        privateKeyToAccount(u.privateKey as Hex),
      );
      batched = await runBatchedFlow(service.driver, service.sandbox, users);
      legs = [];
      for (const attemptId of [batched.twoLegs, batched.oneLeg]) {
        const report = (await audit(['attempt', attemptId, '--json'])).json();
        for (const e of report.events as { type: string; data: Record<string, string> }[]) {
          if (e.type !== 'LegSettled') continue;
          const { sliceId, settledAmount: amount, depositKey, destinationTxHash: fill } = e.data;
          legs.push({ attemptId, sliceId, amount, depositKey, fill });
        }
      }
      const receipt = await service.driver.reader(8453).getTransactionReceipt({ hash: legs[0].fill as Hex });
      const usdc = service.driver.token(8453, 'USDC').toLowerCase();
      wholeSum = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })
        .filter(
          (l) =>
            l.address.toLowerCase() === usdc && l.args.to.toLowerCase() === batched.recipient.toLowerCase(),
        )
        .reduce((sum, l) => sum + l.args.value, 0n);
    }, 120_000);

    /** A copy of the store, edited by `edit`, and the environment that audits it. */
    async function editedCopy(
      name: string,
      edit: (db: Database.Database) => number,
    ): Promise<Record<string, string>> {
      const dataDir = join(tampered, `batched-${name}`);
      mkdirSync(dataDir);
      const file = join(dataDir, 'events.sqlite');
      const source = new Database(join(service.dataDir, 'events.sqlite'), { readonly: true });
      await source.backup(file);
      source.close();
      const copy = new Database(file);
      expect(edit(copy)).toBeGreaterThan(0);
      copy.close();
      return { ...service.env, DATA_DIR: dataDir };
    }
    const legSettled = (
      db: Database.Database,
      attemptId: string,
      sliceId: string,
      set: string,
      ...args: string[]
    ) =>
      db
        .prepare(
          `UPDATE events SET data = ${set} WHERE stream_id = ? AND type = 'LegSettled' AND json_extract(data, '$.sliceId') = ?`,
        )
        .run(...args, `attempt-${attemptId}`, sliceId).changes;

    it('three legs settled from one transaction, each with its own deposit key and less than the whole', () => {
      // In the order they settled, which the tracker does not fix: compared as a set.
      expect(legs.map((l) => `${l.attemptId} ${l.sliceId}`).sort()).toEqual(
        [`${batched.twoLegs} t0:0`, `${batched.twoLegs} t0:1`, `${batched.oneLeg} t0:0`].sort(),
      );
      expect(new Set(legs.map((l) => l.fill)).size).toBe(1);
      expect(new Set(legs.map((l) => l.depositKey)).size).toBe(3);
      expect(legs.every((l) => /^across-\d+-\d+$/.test(l.depositKey))).toBe(true);
      expect(legs.reduce((sum, l) => sum + BigInt(l.amount), 0n)).toBe(wholeSum);
    });

    it('verify --all and attempt --verify-chain: each batched leg matches its own share and its claim, 0 mismatches', async () => {
      const all = await audit(['verify', '--all', '--json']);
      const summary = JSON.parse(all.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect([all.code, summary.chainMismatches, summary.unreachable]).toEqual([0, 0, 0]);
      for (const attemptId of [batched.twoLegs, batched.oneLeg]) {
        const one = await audit(['attempt', attemptId, '--json', '--verify-chain']);
        const fills = (
          one.json().chainCheck.checks as { role: string; outcome: string; note: string }[]
        ).filter((c) => c.role === 'fill');
        expect(one.code).toBe(0);
        expect(fills.length).toBeGreaterThan(0);
        for (const fill of fills) {
          expect(fill).toMatchObject({
            outcome: 'ok',
            note: expect.stringContaining('claimed per deposit across-'),
          });
        }
      }
    });

    it('a LegSettled recording the whole transaction’s sum is a mismatch', async () => {
      const [leg] = legs;
      const env = await editedCopy('whole-sum', (db) =>
        legSettled(
          db,
          leg.attemptId,
          leg.sliceId,
          "json_set(data, '$.settledAmount', ?)",
          wholeSum.toString(),
        ),
      );
      const one = await audit(['attempt', leg.attemptId, '--json', '--verify-chain'], env);
      expect(one.code).toBe(1);
      expect(one.json().chainCheck.mismatches).toEqual([
        expect.objectContaining({
          role: 'fill',
          sliceId: leg.sliceId,
          fact: 'amount to recipient',
          recorded: `${wholeSum} (exact)`,
          onChain: `${leg.amount} (exact)`,
        }),
      ]);
    });

    it('a LegSettled naming another deposit’s key is a mismatch: the deposit and its claim', async () => {
      const [other, , leg] = legs;
      const env = await editedCopy('other-key', (db) =>
        legSettled(db, leg.attemptId, leg.sliceId, "json_set(data, '$.depositKey', ?)", other.depositKey),
      );
      const one = await audit(['attempt', leg.attemptId, '--json', '--verify-chain'], env);
      expect(one.code).toBe(1);
      expect(one.json().chainCheck.mismatches).toEqual([
        expect.objectContaining({ fact: 'deposit', recorded: other.depositKey, onChain: leg.depositKey }),
        expect.objectContaining({
          fact: 'claim',
          recorded: `fill:${leg.attemptId}:${leg.sliceId}`,
          onChain: expect.stringContaining(`fill:${other.attemptId}:${other.sliceId}`),
        }),
      ]);
      const all = await audit(['verify', '--all'], env);
      expect([all.code, all.stdout]).toEqual([1, expect.stringContaining('result: 2 finding(s)')]);
    });

    it('LegSettled of an earlier build, without the key: the key is derived as the tracker derives it', async () => {
      const env = await editedCopy(
        'no-key',
        (db) =>
          db
            .prepare(
              "UPDATE events SET data = json_remove(data, '$.depositKey') WHERE type IN ('LegSettled', 'LegFillSeen')",
            )
            .run().changes,
      );
      const all = await audit(['verify', '--all', '--json'], env);
      const summary = JSON.parse(all.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
      expect([all.code, summary.chainMismatches]).toEqual([0, 0]);
    });

    it('a whole-transaction claim of a build before per-deposit claims: the claim holds, the whole sum it recorded does not', async () => {
      const leg = legs[2];
      const owner = `fill:${leg.attemptId}:${leg.sliceId}`;
      const env = await editedCopy('whole-tx-claim', (db) => {
        const claim = db
          .prepare("UPDATE events SET data = json_set(data, '$.owner', ?) WHERE stream_id = ?")
          .run(owner, `txclaim-8453-${leg.fill.toLowerCase()}`).changes;
        const settled = legSettled(
          db,
          leg.attemptId,
          leg.sliceId,
          "json_set(json_remove(data, '$.depositKey'), '$.settledAmount', ?)",
          wholeSum.toString(),
        );
        return claim * settled;
      });
      const one = (await audit(['attempt', leg.attemptId, '--json', '--verify-chain'], env)).json();
      expect(one.chainCheck.mismatches).toEqual([
        expect.objectContaining({
          fact: 'amount to recipient',
          recorded: `${wholeSum} (exact)`,
          onChain: `${leg.amount} (exact)`,
        }),
      ]);
      expect(one.chainCheck.checks).toContainEqual(
        expect.objectContaining({
          role: 'fill',
          note: expect.stringContaining('whole transaction claimed by this leg'),
        }),
      );
    });
  });
});

/** The store file's bytes, and that its write-ahead log holds nothing (a read-only reader never writes one). */
function fingerprint(file: string): string {
  const wal = `${file}-wal`;
  const walBytes = existsSync(wal) ? statSync(wal).size : 0;
  return `${createHash('sha256').update(readFileSync(file)).digest('hex')} wal=${walBytes}`;
}
