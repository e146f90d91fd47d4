import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { createWebhookReceiver, MemoryProcessedEventStore, type WebhookEvent } from '@svc/partner-client';
import { type PartnerConfig } from '@svc/platform';

/** One verified delivery, as `npm start` prints it. */
export interface ReceivedWebhook {
  partnerId: string;
  event: WebhookEvent;
}

export interface DevWebhookReceiver {
  /** Where it listens, or why it could not (the port is taken: whatever listens there gets the webhooks). */
  listening: { url: string; paths: string[] }[];
  skipped: string[];
  close(): Promise<void>;
}

/**
 * The partner's side of `npm start`: for every partner whose callbackUrl is plain HTTP on this machine, a receiver
 * on that port and path that verifies each delivery with the partner's secret (exactly as a partner's backend
 * must: libs/partner-client's createWebhookReceiver) and reports it. Partners sharing a port share one server.
 */
export async function startDevWebhookReceiver(
  partners: readonly PartnerConfig[],
  onWebhook: (received: ReceivedWebhook) => void,
): Promise<DevWebhookReceiver> {
  const byPort = new Map<number, { host: string; routes: Map<string, PartnerConfig> }>();
  const skipped: string[] = [];
  for (const partner of partners) {
    if (!partner.callbackUrl) continue;
    const url = new URL(partner.callbackUrl);
    if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
      skipped.push(`${partner.partnerId}: ${url.origin} is not on this machine`);
      continue;
    }
    const port = Number(url.port || 80);
    const entry = byPort.get(port) ?? { host: url.hostname.replace(/^\[|\]$/g, ''), routes: new Map() };
    entry.routes.set(url.pathname, partner);
    byPort.set(port, entry);
  }

  const servers: Server[] = [];
  const listening: DevWebhookReceiver['listening'] = [];
  for (const [port, { host, routes }] of byPort) {
    const handlers = new Map(
      [...routes].map(([path, partner]) => [
        path,
        createWebhookReceiver({
          partnerId: partner.partnerId,
          secret: partner.secret,
          store: new MemoryProcessedEventStore(),
          onEvent: (event) => Promise.resolve(onWebhook({ partnerId: partner.partnerId, event })),
        }),
      ]),
    );
    const server = createServer((req, res) => {
      const handler = handlers.get((req.url ?? '').split('?')[0] ?? '');
      if (handler) return handler(req, res);
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not_found"}');
    });
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, host, () => resolve(true));
    });
    if (!bound) {
      skipped.push(
        `port ${port} is taken: webhooks for ${[...routes.values()].map((p) => p.partnerId).join(', ')} go to whatever listens there`,
      );
      continue;
    }
    servers.push(server);
    const address = server.address() as AddressInfo;
    listening.push({ url: `http://${host}:${address.port}`, paths: [...routes.keys()] });
  }
  return {
    listening,
    skipped,
    close: () =>
      Promise.all(
        servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())).then(() => undefined)),
      ).then(() => undefined),
  };
}

/** One line per verified delivery. */
export function describeWebhook({ partnerId, event }: ReceivedWebhook): string {
  const status = (event as { status?: unknown }).status;
  return [
    `webhook ${String(event.event).padEnd(16)}`,
    `partner ${partnerId}`,
    `attempt ${event.attemptId ?? '-'}`,
    ...(typeof status === 'string' ? [`status ${status}`] : []),
    `eventId ${event.eventId}`,
    '(signature verified)',
  ].join('  ');
}
