import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AttemptPreparedData } from '@svc/domain';
import { prepared, T0, walletSubmitted } from '@svc/domain/attempt-fixture';
import { resetStoredEventProblems, SqliteEventStore } from '@svc/event-store';
import { runCli } from '../run-cli';

/** An attempt of partner `p` as prepare records it. */
const preparedData = (attemptId: string): AttemptPreparedData => ({
  ...prepared,
  attemptId,
  intentSessionId: `is_${attemptId}`,
  partnerId: 'p',
});

/**
 * The audit over a store (real SQLite, written here, audited read-only through the CLI) whose histories hold events
 * this build cannot read: a type it does not know (a newer build's), and malformed events (a webhook event whose data
 * is not an object, an AttemptPrepared without legs, an EvidenceReported without chain results).
 */
describe('audit: stored events of an unknown type and malformed ones', () => {
  let dir: string;
  const positions = new Map<string, string>();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'audit-unreadable-'));
    const store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
    const append = async (streamId: string, type: string, data: unknown) => {
      // data as a writer with a bug, or a newer build, stored it: not necessarily the shape this build reads.
      const result = await store.append(
        streamId,
        [{ id: randomUUID(), type, data: data as Record<string, never> }],
        {
          expectedRevision: 'any',
        },
      );
      positions.set(`${streamId}#${result.nextRevision}`, result.position);
    };
    // at_ok: a well-formed attempt, with an event type this build does not know between its events.
    await append('attempt-at_ok', 'AttemptPrepared', preparedData('at_ok'));
    await append('attempt-at_ok', 'AttemptRepriced', { at: T0 + 5_000 });
    await append('attempt-at_ok', walletSubmitted().type, walletSubmitted().data);
    await append('webhook-at_ok', 'WebhookQueued', ['not', 'an', 'object']);
    // at_nolegs: an AttemptPrepared without legs.
    const { legs: _legs, ...withoutLegs } = preparedData('at_nolegs');
    await append('attempt-at_nolegs', 'AttemptPrepared', withoutLegs);
    // at_noresults: well prepared, then an EvidenceReported without chain results.
    await append('attempt-at_noresults', 'AttemptPrepared', preparedData('at_noresults'));
    await append('attempt-at_noresults', 'EvidenceReported', {
      reportId: 'r1',
      reportedAt: T0 + 1,
      submittedAt: null,
    });
    await store.close();
  });
  beforeEach(() => resetStoredEventProblems());
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function audit(argv: string[]) {
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      argv,
      { DATA_DIR: dir },
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
    );
    return { code, stdout, stderr };
  }

  it('given a history with a type it does not know and a malformed webhook event, when one attempt is audited, then the type is skipped and the malformed event is a finding with its position', async () => {
    const result = await audit(['attempt', 'at_ok', '--json']);

    const report = JSON.parse(result.stdout) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the audit's JSON, asserted field by field
    expect(result.code).toBe(1);
    expect(report.snapshot.status).toBe('wallet_submitted'); // folded without the unknown event, as the service folds it
    expect(report.statusCheck).toMatchObject({ equal: true, differences: [] });
    expect(report.storedEvents).toEqual({
      skipped: { AttemptRepriced: 1 },
      malformed: [
        expect.objectContaining({
          streamId: 'webhook-at_ok',
          revision: 0,
          position: positions.get('webhook-at_ok#0'),
          type: 'WebhookQueued',
          reason: expect.stringMatching(/^malformed WebhookQueued/) as unknown,
        }),
      ],
    });
    expect(report.findings).toBe(1);
    const facts = Object.fromEntries(
      (report.events as { type: string; facts: string }[]).map((e) => [e.type, e.facts]),
    );
    expect(facts['AttemptRepriced']).toMatch(/^a type this build does not know/);
    expect(facts['WebhookQueued']).toMatch(/^MALFORMED/);
  });

  it('given an attempt stream with an EvidenceReported without chain results, when it is audited, then the attempt is refused with that event as the finding, not a crash', async () => {
    const text = await audit(['attempt', 'at_noresults']);
    const json = await audit(['attempt', 'at_noresults', '--json']);

    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      `MALFORMED  attempt-at_noresults revision 1 (EvidenceReported) at position ${positions.get('attempt-at_noresults#1')}`,
    );
    expect(text.stdout).toMatch(/result: 1 finding\(s\)\n$/);
    expect(JSON.parse(json.stdout)).toMatchObject({
      attemptId: 'at_noresults',
      refused: true,
      storedEvents: {
        malformed: [{ streamId: 'attempt-at_noresults', revision: 1, type: 'EvidenceReported' }],
      },
      findings: 1,
    });
  });

  it('given both, when verify --all walks the log, then each malformed event is a finding, the unknown type is counted, and the sound attempt is checked', async () => {
    const result = await audit(['verify', '--all', '--store-only', '--json']);

    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const summary = lines.at(-1)!;
    expect(result.code).toBe(1);
    expect(lines.filter((l) => l.kind === 'malformed')).toEqual([
      {
        kind: 'malformed',
        attemptId: 'at_nolegs',
        event: expect.objectContaining({
          streamId: 'attempt-at_nolegs',
          revision: 0,
          position: positions.get('attempt-at_nolegs#0'),
          type: 'AttemptPrepared',
        }) as unknown,
      },
      {
        kind: 'malformed',
        attemptId: 'at_noresults',
        event: expect.objectContaining({
          streamId: 'attempt-at_noresults',
          revision: 1,
          position: positions.get('attempt-at_noresults#1'),
          type: 'EvidenceReported',
        }) as unknown,
      },
    ]);
    expect(summary).toMatchObject({
      kind: 'summary',
      attempts: 1,
      attemptsWithFindings: 2,
      statusDifferences: 0,
      malformedEvents: 2,
      skippedTypes: { AttemptRepriced: 1 },
    });
  });
});
