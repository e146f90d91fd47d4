import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { SqliteEventStore } from '@svc/event-store';
import { type FeatureReply, type FeatureRequest, MessagePattern } from '@svc/messaging';
import { ManualClock, signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Stands in for the quoting feature (issue 4) so the gateway's idempotency rules can be exercised over
 * HTTP: it creates a numbered session, can be held open, and answers replays with the stored session.
 */
const calls: FeatureRequest[] = [];
let hold: Promise<void> | null = null;
let failNext: 'not_implemented' | null = null;

@Controller()
class CountingQuote {
  @OnMessage(MessagePattern.quote)
  async quote(@Payload() request: FeatureRequest): Promise<FeatureReply> {
    calls.push(request);
    if (request.replayOf)
      return {
        ok: true,
        body: { intentSessionId: request.replayOf.id, replayed: true },
        resource: request.replayOf,
      };
    if (hold) await hold;
    if (failNext) {
      const code = failNext;
      failNext = null;
      return { ok: false, code, message: 'not now' };
    }
    const id = `is_${calls.length}`;
    return {
      ok: true,
      body: { intentSessionId: id, replayed: false },
      resource: { kind: 'intent_session', id },
    };
  }
}
@Module({ controllers: [CountingQuote] })
class CountingQuoteModule {}

const QUOTE = '/api/external/intents/quote';
const body = {
  walletAddress: '0x1111111111111111111111111111111111111111',
  sources: [{ chainId: 1, address: '0x2222222222222222222222222222222222222222', amount: '5', decimals: 6 }],
  target: {
    chainId: 10,
    address: '0x3333333333333333333333333333333333333333',
    targetToken: { address: '0x3333333333333333333333333333333333333333', decimals: 6 },
  },
};

describe('idempotency over HTTP (SQLite event store)', () => {
  let t: TestApp;
  let dir: string;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'idem-'));
    t = await startTestApp({
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), clock: () => new Date(clock.now()) }),
      clock,
      features: [CountingQuoteModule],
      env: { IDEMPOTENCY_LEASE_SECONDS: '60' },
    });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    calls.length = 0;
    clock.set(Date.now());
  });

  const quote = (key: string, b: unknown = body, partner = PARTNERS.v2) =>
    signedRequest({
      port: t.port,
      partner,
      method: 'POST',
      path: QUOTE,
      body: b,
      idempotencyKey: key,
      timestamp: clock.now(),
    });

  it('replays the same key and bytes: the first resource, never a second one', async () => {
    const first = await quote('replay-1');
    const again = await quote('replay-1');
    expect(first.json).toEqual({ apiVersion: '1', intentSessionId: 'is_1', replayed: false });
    expect(again.json).toEqual({ apiVersion: '1', intentSessionId: 'is_1', replayed: true });
    expect(calls.map((c) => c.replayOf)).toEqual([null, { kind: 'intent_session', id: 'is_1' }]);
  });

  it('422 idempotency_key_reused for the same key with other bytes', async () => {
    await quote('reuse-1');
    const res = await quote('reuse-1', { ...body, slippageBps: 60 });
    expect([res.status, res.json.code]).toEqual([422, 'idempotency_key_reused']);
    expect(calls).toHaveLength(1);
  });

  it('422 for the same key on another endpoint', async () => {
    await quote('endpoint-1');
    const res = await signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'POST',
      path: '/api/external/intents/is_1/prepare',
      body: {},
      idempotencyKey: 'endpoint-1',
    });
    expect([res.status, res.json.code]).toEqual([422, 'idempotency_key_reused']);
  });

  it('treats byte-different but JSON-equal bodies as different (the key binds the exact bytes)', async () => {
    await quote('bytes-1', JSON.stringify(body));
    const res = await quote('bytes-1', JSON.stringify(body, null, 2));
    expect(res.status).toBe(422);
  });

  it('scopes keys per partner', async () => {
    await quote('shared-key');
    const res = await quote('shared-key', body, PARTNERS.other);
    expect(res.json.replayed).toBe(false);
    expect(calls).toHaveLength(2);
  });

  it('two concurrent requests with one key: one runs, the other gets 409 in progress with Retry-After', async () => {
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const first = quote('concurrent-1');
    await new Promise((r) => setTimeout(r, 100));
    const second = await quote('concurrent-1');
    release();
    hold = null;
    expect([second.status, second.json.code]).toEqual([409, 'idempotency_request_in_progress']);
    expect(Number(second.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await first).json.replayed).toBe(false);
    expect(calls.filter((c) => !c.replayOf)).toHaveLength(1);
  });

  it('runs two truly simultaneous first requests with one key exactly once', async () => {
    const results = await Promise.all([quote('race-1'), quote('race-1'), quote('race-1')]);
    expect(calls.filter((c) => !c.replayOf)).toHaveLength(1);
    for (const r of results) expect([200, 409]).toContain(r.status);
  });

  it('lets an abandoned in-progress key run again once its lease ended', async () => {
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    const first = quote('lease-1');
    await new Promise((r) => setTimeout(r, 100));
    clock.advance(61_000);
    const second = quote('lease-1');
    await new Promise((r) => setTimeout(r, 100));
    release();
    hold = null;
    await Promise.all([first, second]);
    expect(calls.filter((c) => !c.replayOf)).toHaveLength(2);
  });

  it('releases the key when the feature made nothing, so the same request may run again', async () => {
    failNext = 'not_implemented';
    const first = await quote('released-1');
    const again = await quote('released-1');
    expect(first.status).toBe(501);
    expect(again.json.replayed).toBe(false);
    const reused = await quote('released-1', { ...body, slippageBps: 70 });
    expect(reused.status).toBe(422);
  });

  it('stores nothing for a request rejected by validation: the key stays free', async () => {
    const bad = await quote('validation-1', { ...body, slippageBps: 0 });
    expect(bad.json.code).toBe('invalid_slippage_bps');
    const good = await quote('validation-1');
    expect(good.json.replayed).toBe(false);
  });

  it('stores nothing for a request rejected by authentication', async () => {
    const bad = await signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'POST',
      path: QUOTE,
      body,
      idempotencyKey: 'auth-1',
      signingSecret: 'wrong-secret-0123456789',
    });
    expect(bad.status).toBe(401);
    expect((await quote('auth-1', { ...body, slippageBps: 99 })).json.replayed).toBe(false);
  });

  it('keeps a key for the 24 h retention, then lets it start a new operation', async () => {
    await quote('retained-1');
    clock.advance(23 * 3600 * 1000);
    expect((await quote('retained-1')).json.replayed).toBe(true);
    clock.advance(2 * 3600 * 1000);
    const after = await quote('retained-1', { ...body, slippageBps: 80 });
    expect([after.status, after.json.replayed]).toEqual([200, false]);
  });
});
