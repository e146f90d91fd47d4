import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@svc/event-store';
import { signedRequest, type TestPartner } from '@svc/testing';
import { decideWebhooks } from '@svc/webhooks';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * The cursors of GET /webhooks/events over HTTP on the standalone service (SQLite, whose log positions are one global
 * sequence): a cursor names the partner's own place in its list, so polling it tells nothing of other partners'
 * activity, and the service takes back only the exact cursor it gave that partner (security review N-L2).
 */
describe('webhook list cursors (security review N-L2)', () => {
  let t: TestApp;
  let dir: string;
  const mine = PARTNERS.v2;
  const theirs = PARTNERS.other;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'webhook-cursors-'));
    t = await startTestApp({
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      // The dispatcher stays idle: the events queued here are listed, not sent.
      env: { WEBHOOK_TICK_MS: '60000' },
    });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Queues a `wallet_submitted` webhook of a new attempt of the partner, as the dispatcher would; its event id. */
  async function queue(partner: TestPartner): Promise<string> {
    const attemptId = `at_${randomUUID().replaceAll('-', '').slice(0, 22)}`;
    const eventId = randomUUID();
    await decideWebhooks(t.store, attemptId, `queue:${eventId}`, {
      type: 'QueueWebhook',
      data: {
        eventId,
        event: 'wallet_submitted',
        attemptId,
        partnerId: partner.partnerId,
        lifecycleRevision: 0,
        occurredAt: Date.now(),
        now: Date.now(),
      },
    });
    return eventId;
  }
  const list = (partner: TestPartner, cursor?: string) =>
    signedRequest({
      port: t.port,
      partner,
      method: 'GET',
      path: `/api/external/webhooks/events${cursor === undefined ? '' : `/after/${cursor}`}`,
    });
  /** A cursor of the form issued before N-L2: base64url JSON of the log position read on after. */
  const legacyCursor = (position: string) =>
    Buffer.from(JSON.stringify({ v: 1, p: position }), 'utf8').toString('base64url');

  let cursor: string; // my cursor after my first two events

  it("gives a partner the same cursor while only other partners' webhooks are queued; its own next one moves it on", async () => {
    const first = [await queue(mine), await queue(mine)];
    const listed = await list(mine);
    expect([listed.status, listed.json.events.map((e: { eventId: string }) => e.eventId)]).toEqual([
      200,
      first,
    ]);
    cursor = listed.json.nextCursor;

    for (let n = 0; n < 5; n++) await queue(theirs);
    const polled = await list(mine, cursor);
    expect([polled.status, polled.json.events, polled.json.nextCursor, polled.json.hasMore]).toEqual([
      200,
      [],
      cursor,
      false,
    ]);
    expect((await list(theirs)).json.events).toHaveLength(5);

    const next = await queue(mine);
    const later = await list(mine, cursor);
    expect(later.json.events.map((e: { eventId: string }) => e.eventId)).toEqual([next]);
    expect(later.json.nextCursor).not.toBe(cursor);
  });

  it("answers 400 invalid_webhook_cursor to a cursor edited in one character, and to another partner's cursor", async () => {
    for (const i of [0, Math.floor(cursor.length / 2), cursor.length - 1]) {
      const swapped = cursor[i] === 'A' ? 'B' : 'A';
      const edited = cursor.slice(0, i) + swapped + cursor.slice(i + 1);
      const res = await list(mine, edited);
      expect([i, res.status, res.json.code]).toEqual([i, 400, 'invalid_webhook_cursor']);
    }
    const foreign = await list(theirs, cursor);
    expect([foreign.status, foreign.json.code]).toEqual([400, 'invalid_webhook_cursor']);
  });

  it("reads on from a cursor of the form issued before (a log position), within the partner's own list only", async () => {
    const all = await list(mine);
    const fromStart = await list(mine, legacyCursor('0'));
    expect([fromStart.status, fromStart.json]).toEqual([200, all.json]);
    // A forged position far past the log: nothing of anyone's, and the partner's current cursor.
    const forged = await list(mine, legacyCursor('99999999999'));
    expect([forged.status, forged.json.events, forged.json.nextCursor]).toEqual([
      200,
      [],
      all.json.nextCursor,
    ]);
  });
});
