import { createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { createWebhookReceiver, MemoryProcessedEventStore, type WebhookEvent } from '@svc/partner-client';

export interface CountingWebhookReceiver {
  /** The callback URL to configure for the partner. */
  url: string;
  /** Every verified event, once each, in arrival order. */
  received: WebhookEvent[];
  /** How many deliveries repeated an eventId already processed. */
  duplicates(): number;
  /** While down, every delivery is answered 503 (a partner outage). */
  setUp(up: boolean): void;
  close(): Promise<void>;
}

/**
 * A partner's webhook endpoint on loopback, built on the real `createWebhookReceiver` (signature and timestamp
 * verified, deduplicated by eventId), that also counts redeliveries of processed events.
 */
export async function startCountingWebhookReceiver(partner: {
  partnerId: string;
  secret: string;
}): Promise<CountingWebhookReceiver> {
  const received: WebhookEvent[] = [];
  const processed = new MemoryProcessedEventStore();
  let duplicates = 0;
  let up = true;
  const handler = createWebhookReceiver({
    partnerId: partner.partnerId,
    secret: partner.secret,
    store: {
      add: (id) => processed.add(id),
      has: async (id) => {
        const seen = await processed.has(id);
        if (seen) duplicates++;
        return seen;
      },
    },
    onEvent: (event) => {
      received.push(event);
      return Promise.resolve();
    },
  });
  const server = createServer((req, res) => {
    if (up) return handler(req, res);
    req.resume();
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    duplicates: () => duplicates,
    setUp: (value) => (up = value),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
