import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { webhookStreamId } from '@svc/domain';
import { decideWebhooks, loadWebhooks } from '@svc/webhooks';
import { runCli } from './run-cli';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const ATTEMPT = 'at_cli_1';
const OTHER = 'at_cli_2';
const RETRYING = 'at_cli_3';

let dir: string;
let store: SqliteEventStore;

/** Runs the CLI against the store, the way main does, and captures its output. */
async function cli(argv: string[], env: Record<string, string | undefined> = { DATA_DIR: dir }) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, env, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    now: () => T0 + 60_000,
  });
  return { code, stdout, stderr };
}

async function queue(attemptId: string, eventId: string) {
  await decideWebhooks(store, attemptId, `queue:${eventId}`, {
    type: 'QueueWebhook',
    data: {
      eventId,
      event: 'settled',
      attemptId,
      partnerId: 'partner_1',
      lifecycleRevision: 4,
      occurredAt: T0 - 1_000,
      now: T0,
    },
  });
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhooks-cli-'));
  store = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  // ATTEMPT: one event, a failed try (503), then 410 → abandoned.
  await queue(ATTEMPT, 'ev-1');
  await decideWebhooks(store, ATTEMPT, 'try:ev-1:1', {
    type: 'RecordDeliveryResult',
    data: {
      eventId: 'ev-1',
      now: T0 + 1_000,
      random: 0.5,
      result: { kind: 'failure', status: 503, error: 'service\nunavailable', retryAfterMs: null },
    },
  });
  const { state } = await loadWebhooks(store, ATTEMPT);
  const due = state.status === 'active' ? state.entries[0].nextAttemptAt! : 0;
  await decideWebhooks(store, ATTEMPT, 'try:ev-1:2', {
    type: 'RecordDeliveryResult',
    data: { eventId: 'ev-1', now: due, random: 0.5, result: { kind: 'gone', status: 410 } },
  });
  // OTHER: one event still queued, never tried.
  await queue(OTHER, 'ev-9');
  // RETRYING: one event whose first try had no response; the next try is scheduled.
  await queue(RETRYING, 'ev-5');
  await decideWebhooks(store, RETRYING, 'try:ev-5:1', {
    type: 'RecordDeliveryResult',
    data: {
      eventId: 'ev-5',
      now: T0,
      random: 0.5,
      result: { kind: 'failure', status: null, error: 'timeout', retryAfterMs: 120_000 },
    },
  });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const types = async (attemptId: string) =>
  (await store.readStream(webhookStreamId(attemptId))).map((e) => e.type);

describe('webhooks CLI', () => {
  it('lists the abandoned entry with its last status and error, and counts every status', async () => {
    expect(await types(ATTEMPT)).toEqual(['WebhookQueued', 'WebhookAttempted', 'WebhookAbandoned']);

    const { code, stdout, stderr } = await cli(['list']);

    expect(code).toBe(0);
    expect(stderr).toContain(`sqlite ${join(dir, 'events.sqlite')}`);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'attemptId\teventId\tevent\tstatus\tattempts\tnextAttemptAt\tlastStatus\tlastError',
    );
    expect(lines[1]).toBe(
      `${ATTEMPT}\tev-1\tsettled\tabandoned\t2\t-\t410\tgone: the callback URL answered 410`,
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${RETRYING}\tev-5\tsettled\tretrying\t1\t2026-01-01T00:0\\d:\\d\\d\\.\\d{3}Z\t-\ttimeout$`,
      ),
    );
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(
      'summary: 2 listed (retrying or abandoned) of 3 attempt(s); queued=1 retrying=1 delivered=0 abandoned=1',
    );
  });

  it('filters by status and attempt', async () => {
    const retrying = await cli(['list', '--failed']);
    expect(retrying.code).toBe(0);
    expect(retrying.stdout).toContain(`${RETRYING}\tev-5\tsettled\tretrying`);
    expect(retrying.stdout).not.toContain('abandoned\t');

    const abandoned = await cli(['list', '--abandoned', '--attempt', ATTEMPT]);
    expect(abandoned.stdout).toContain(`${ATTEMPT}\tev-1\tsettled\tabandoned`);
    expect(abandoned.stdout).toContain('of 1 attempt(s); queued=0 retrying=0 delivered=0 abandoned=1');

    const missing = await cli(['list', '--attempt', 'at_none']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not found: attempt at_none');
  });

  it('redelivers the abandoned entry: WebhookRedeliveryRequested appended, the entry is queued again', async () => {
    const { code, stdout } = await cli(['redeliver', ATTEMPT, 'ev-1', '--by', 'alice']);

    expect(code).toBe(0);
    expect(stdout).toContain('requested by alice');
    expect(stdout).toContain('entry is queued');
    const events = await store.readStream(webhookStreamId(ATTEMPT));
    expect(events.map((e) => e.type)).toEqual([
      'WebhookQueued',
      'WebhookAttempted',
      'WebhookAbandoned',
      'WebhookRedeliveryRequested',
    ]);
    expect(events[3].data).toEqual({ eventId: 'ev-1', at: T0 + 60_000, requestedBy: 'alice' });
    const { state } = await loadWebhooks(store, ATTEMPT);
    expect(state.status === 'active' && state.entries[0]).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await cli(['list', '--abandoned'])).stdout).toMatch(/^no abandoned webhook entries\n/);

    // Now queued: a second request is refused and appends nothing.
    const again = await cli(['redeliver', ATTEMPT, 'ev-1']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('refused: webhook_delivery_pending');
    expect(await types(ATTEMPT)).toHaveLength(4);
  });

  it('takes requestedBy from $USER, else "operator"', async () => {
    await cli(['redeliver', ATTEMPT, 'ev-1'], { DATA_DIR: dir, USER: 'bob' });
    const events = await store.readStream(webhookStreamId(ATTEMPT));
    expect(events.at(-1)?.data).toMatchObject({ requestedBy: 'bob' });

    const { state } = await loadWebhooks(store, ATTEMPT);
    const due = state.status === 'active' ? (state.entries[0].nextAttemptAt ?? T0 + 60_000) : 0;
    await decideWebhooks(store, ATTEMPT, 'try:ev-1:3', {
      type: 'RecordDeliveryResult',
      data: { eventId: 'ev-1', now: due, random: 0.5, result: { kind: 'success', status: 200 } },
    });
    await cli(['redeliver', ATTEMPT, 'ev-1'], { DATA_DIR: dir, USER: '' });
    expect((await store.readStream(webhookStreamId(ATTEMPT))).at(-1)?.data).toMatchObject({
      requestedBy: 'operator',
    });
  });

  it('tries an entry waiting for its next retry now: WebhookRetryRequested appended, due at once', async () => {
    const before = await loadWebhooks(store, RETRYING);
    const scheduled = before.state.status === 'active' ? before.state.entries[0].nextAttemptAt! : 0;
    expect(scheduled).toBeGreaterThan(T0 + 60_000);

    const { code, stdout } = await cli(['redeliver', RETRYING, 'ev-5', '--by', 'carol']);

    expect(code).toBe(0);
    expect(stdout).toContain('brought forward by carol');
    expect(stdout).toContain('entry is retrying and due now');
    const events = await store.readStream(webhookStreamId(RETRYING));
    expect(events.map((e) => e.type)).toEqual(['WebhookQueued', 'WebhookAttempted', 'WebhookRetryRequested']);
    expect(events[2].data).toEqual({ eventId: 'ev-5', at: T0 + 60_000, requestedBy: 'carol' });
    const { state } = await loadWebhooks(store, RETRYING);
    expect(state.status === 'active' && state.entries[0]).toMatchObject({
      status: 'retrying',
      attempts: 1,
      nextAttemptAt: T0 + 60_000,
    });

    // Due now: asking again changes nothing.
    const again = await cli(['redeliver', RETRYING, 'ev-5']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing appended');
    expect(await types(RETRYING)).toHaveLength(3);
  });

  it('refuses a queued entry and an unknown event with exit code 1', async () => {
    const queued = await cli(['redeliver', OTHER, 'ev-9'], { DATA_DIR: dir });
    expect(queued).toMatchObject({ code: 1 });
    expect(queued.stderr).toContain('refused: webhook_delivery_pending');

    const unknown = await cli(['redeliver', ATTEMPT, 'ev-nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('refused: webhook_event_unknown');
    expect(await types(OTHER)).toEqual(['WebhookQueued']);
  });

  it('answers usage errors with exit code 2 and help with 0', async () => {
    for (const argv of [
      ['frobnicate'],
      ['list', '--failed', '--abandoned'],
      ['list', '--attempt'],
      ['list', 'extra'],
      ['redeliver', ATTEMPT],
      ['redeliver', ATTEMPT, 'ev-1', '--by'],
      ['redeliver', ATTEMPT, 'ev-1', '--force'],
    ]) {
      const { code, stderr } = await cli(argv);
      expect({ argv, code }).toEqual({ argv, code: 2 });
      expect(stderr).toContain('usage: npm run webhooks');
    }
    expect((await cli(['help'])).code).toBe(0);
    expect((await cli(['list'], { DATA_DIR: dir, EVENT_STORE: 'memory' })).code).toBe(2);
  });
});
