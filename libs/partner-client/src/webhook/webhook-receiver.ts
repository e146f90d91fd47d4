import { type IncomingMessage, type ServerResponse } from 'node:http';
import { type ProcessedEventStore } from './processed-event-store';
import { readRawBody } from './read-raw-body';
import { verifyWebhook } from './verify-webhook';
import { type WebhookEvent } from './webhook-event';

export interface WebhookReceiverOptions {
  partnerId: string;
  secret: string;
  store: ProcessedEventStore;
  /** Runs once per eventId unless it throws; a redelivery after a 500 runs it again, so keep it idempotent. */
  onEvent: (event: WebhookEvent) => Promise<void>;
  nowMs?: () => number;
  /** Larger bodies are refused with 413 before verification. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Told about every failure answered with 500; the sender only sees the status. */
  onError?: (error: unknown) => void;
}

export type WebhookRequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A node:http handler that applies the spec's receiver rules: verify the raw bytes (401 when they fail), skip an
 * eventId already processed (200), else process, record the eventId durably and only then answer 200. Any
 * failure answers 500 so the service redelivers. Mount it where no body parser has consumed the request.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookRequestHandler {
  const { store, onEvent } = options;
  const nowMs = options.nowMs ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const inFlight = new Map<string, Promise<unknown>>();

  // One delivery per eventId at a time in this process, so an operator redelivery that races a retry waits for
  // it and then finds the event recorded, instead of running onEvent a second time.
  async function processOnce(event: WebhookEvent): Promise<'processed' | 'duplicate'> {
    for (let running = inFlight.get(event.eventId); running; running = inFlight.get(event.eventId)) {
      await running.catch(() => undefined);
    }
    const run = (async () => {
      if (await store.has(event.eventId)) return 'duplicate' as const;
      await onEvent(event);
      await store.add(event.eventId);
      return 'processed' as const;
    })();
    inFlight.set(event.eventId, run);
    try {
      return await run;
    } finally {
      if (inFlight.get(event.eventId) === run) inFlight.delete(event.eventId);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'POST') return reply(res, 405, { error: 'method_not_allowed' });
    const raw = await readRawBody(req, maxBodyBytes);
    if (raw === 'too_large') {
      res.setHeader('Connection', 'close');
      return reply(res, 413, { error: 'body_too_large' });
    }
    const verified = verifyWebhook(raw, req.headers, {
      partnerId: options.partnerId,
      secret: options.secret,
      nowMs: nowMs(),
    });
    if (!verified.ok) return reply(res, 401, { error: verified.reason });
    const outcome = await processOnce(verified.event);
    reply(res, 200, { ok: true, duplicate: outcome === 'duplicate' });
  }

  return (req, res) => {
    handle(req, res)
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else reply(res, 500, { error: 'processing_failed' });
        options.onError?.(error);
      })
      // A throwing onError must not take the receiver process down with an unhandled rejection.
      .catch(() => undefined);
  };
}

function reply(res: ServerResponse, status: number, body: object): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}
