import { createServer, request, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signWebhook } from '@svc/auth';
import { FileProcessedEventStore } from './file-processed-event-store';
import { MemoryProcessedEventStore } from './memory-processed-event-store';
import { type ProcessedEventStore } from './processed-event-store';
import { createWebhookReceiver, type WebhookReceiverOptions } from './webhook-receiver';
import { type WebhookEvent } from './webhook-event';

const NOW = 1767225600000;
const SECRET = 'whsec-partner-a';
// Deliberately not in JSON.stringify's form: the receiver must verify the bytes as sent, never a re-serialisation.
const BODY =
  '{ "eventId": "evt_0001", "event": "settled", "attemptId": "att_1", "partnerId": "partner-a", "n": "é" }';

interface Delivery {
  body?: string;
  /** What the signature covers, when it is not the body sent. */
  signedBody?: string;
  secret?: string;
  timestamp?: number;
  headers?: Record<string, string>;
}

let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(resolve);
        }),
    ),
  );
  servers = [];
});

async function startReceiver(options: Partial<WebhookReceiverOptions> = {}) {
  const events: WebhookEvent[] = [];
  const errors: unknown[] = [];
  const store = options.store ?? new MemoryProcessedEventStore();
  const receiver = createWebhookReceiver({
    partnerId: 'partner-a',
    secret: SECRET,
    store,
    onEvent: (event) => {
      events.push(event);
      return Promise.resolve();
    },
    onError: (error) => errors.push(error),
    nowMs: () => NOW,
    ...options,
  });
  const server = createServer(receiver);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;

  const deliver = async (delivery: Delivery = {}) => {
    const body = delivery.body ?? BODY;
    const timestamp = String(delivery.timestamp ?? NOW);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'X-Partner-Id': 'partner-a',
        'X-Timestamp': timestamp,
        'X-Signature': signWebhook(delivery.secret ?? SECRET, timestamp, delivery.signedBody ?? body),
        'X-Service-Event-Id': 'evt_0001',
        'X-Service-Api-Version': '1',
        'Content-Type': 'application/json',
        ...delivery.headers,
      },
      body,
    });
    return { status: response.status, body: await response.json() };
  };
  return { url, store, events, errors, deliver };
}

describe('createWebhookReceiver', () => {
  it('verifies the raw bytes, processes the event, records it and answers 200', async () => {
    const receiver = await startReceiver();

    expect(await receiver.deliver()).toEqual({ status: 200, body: { ok: true, duplicate: false } });
    expect(receiver.events).toEqual([
      { eventId: 'evt_0001', event: 'settled', attemptId: 'att_1', partnerId: 'partner-a', n: 'é' },
    ]);
    expect(await receiver.store.has('evt_0001')).toBe(true);
  });

  it('treats a second delivery of the same event as a no-op, still answering 200', async () => {
    const receiver = await startReceiver();

    await receiver.deliver();
    expect(await receiver.deliver({ timestamp: NOW + 60_000 })).toEqual({
      status: 200,
      body: { ok: true, duplicate: true },
    });
    expect(receiver.events).toHaveLength(1);
  });

  it('runs onEvent once when the same event arrives twice at the same moment', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const receiver = await startReceiver({
      onEvent: async () => {
        calls += 1;
        await gate;
      },
    });

    const both = Promise.all([receiver.deliver(), receiver.deliver()]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();

    expect((await both).map((r) => r.status)).toEqual([200, 200]);
    expect(calls).toBe(1);
  });

  it.each<[string, Delivery, string]>([
    ['a tampered body', { body: BODY.replace('settled', 'failed'), signedBody: BODY }, 'signature_invalid'],
    ['the wrong secret', { secret: 'whsec-partner-b' }, 'signature_invalid'],
    ['a stale timestamp', { timestamp: NOW - 300_001 }, 'timestamp_expired'],
    ['a future timestamp', { timestamp: NOW + 300_001 }, 'timestamp_expired'],
    [
      'an event-id header unlike the payload',
      { headers: { 'X-Service-Event-Id': 'evt_0002' } },
      'event_id_mismatch',
    ],
    ['another partner id', { headers: { 'X-Partner-Id': 'partner-b' } }, 'partner_mismatch'],
  ])('answers 401 to %s, without processing or recording it', async (_label, delivery, reason) => {
    const receiver = await startReceiver();

    expect(await receiver.deliver(delivery)).toEqual({ status: 401, body: { error: reason } });
    expect(receiver.events).toEqual([]);
    expect(await receiver.store.has('evt_0001')).toBe(false);
  });

  it('answers 500 when onEvent throws, records nothing, and processes the redelivery', async () => {
    let failures = 1;
    const processed: string[] = [];
    const receiver = await startReceiver({
      onEvent: (event) => {
        if (failures-- > 0) return Promise.reject(new Error('database down'));
        processed.push(event.eventId);
        return Promise.resolve();
      },
    });

    expect(await receiver.deliver()).toEqual({ status: 500, body: { error: 'processing_failed' } });
    expect(await receiver.store.has('evt_0001')).toBe(false);
    expect(receiver.errors).toEqual([new Error('database down')]);

    expect(await receiver.deliver({ timestamp: NOW + 5_000 })).toEqual({
      status: 200,
      body: { ok: true, duplicate: false },
    });
    expect(processed).toEqual(['evt_0001']);
    expect(await receiver.store.has('evt_0001')).toBe(true);
  });

  it('answers 500 when the store cannot record the event, so the service redelivers', async () => {
    const store: ProcessedEventStore = {
      has: () => Promise.resolve(false),
      add: () => Promise.reject(new Error('disk full')),
    };
    const receiver = await startReceiver({ store });
    expect(await receiver.deliver()).toEqual({ status: 500, body: { error: 'processing_failed' } });
  });

  it('answers 500 without processing when the store cannot be read', async () => {
    const store: ProcessedEventStore = {
      has: () => Promise.reject(new Error('disk gone')),
      add: () => Promise.resolve(),
    };
    const receiver = await startReceiver({ store });
    expect(await receiver.deliver()).toEqual({ status: 500, body: { error: 'processing_failed' } });
    expect(receiver.events).toEqual([]);
  });

  it('refuses a body above maxBodyBytes with 413 before verifying it', async () => {
    const receiver = await startReceiver({ maxBodyBytes: 64 });
    expect(await receiver.deliver()).toEqual({ status: 413, body: { error: 'body_too_large' } });
    expect(receiver.events).toEqual([]);
  });

  it('stops reading a chunked body once it passes maxBodyBytes', async () => {
    const receiver = await startReceiver({ maxBodyBytes: 64 });
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        receiver.url,
        { method: 'POST', headers: { 'Transfer-Encoding': 'chunked' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.write('x'.repeat(100));
    });
    expect(status).toBe(413);
    expect(receiver.events).toEqual([]);
  });

  it('answers 405 to anything but POST', async () => {
    const receiver = await startReceiver();
    const response = await fetch(receiver.url);
    expect(response.status).toBe(405);
  });

  it('remembers processed events across a restart with FileProcessedEventStore', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'webhook-receiver-'));
    try {
      const path = join(dir, 'processed-events.txt');
      const first = await startReceiver({ store: new FileProcessedEventStore(path) });
      await first.deliver();
      expect(readFileSync(path, 'utf8')).toBe('evt_0001\n');

      const restarted = await startReceiver({ store: new FileProcessedEventStore(path) });
      expect(await restarted.deliver()).toEqual({ status: 200, body: { ok: true, duplicate: true } });
      expect(restarted.events).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
