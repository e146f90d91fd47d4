import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { HEADER } from '@svc/contract';
import { createWebhookReceiver, MemoryProcessedEventStore } from '@svc/partner-client';

export interface Arrival {
  eventId: string;
  event: string;
  attemptId: string | undefined;
  /** performance.now() when the receiver processed it. */
  at: number;
}

export interface BenchReceiver {
  url: string;
  /** First processing of each eventId (the receiver's dedupe lets an eventId through once). */
  arrivals: Map<string, Arrival>;
  /** How often onEvent ran per eventId: more than 1 is a duplicate that got past the dedupe. */
  processed: Map<string, number>;
  /** Every POST that reached the server, including the refused first tries. */
  posts: { total: number; refused503: number; non200: number };
  close(): Promise<void>;
}

/**
 * The partner's side: a loopback node:http server running the partner client's webhook receiver (verification and
 * dedupe by eventId) over a memory store. With `refuseFirstTry`, the first POST of each eventId is answered 503
 * before the receiver sees it.
 */
export async function startBenchReceiver(params: {
  partnerId: string;
  secret: string;
  refuseFirstTry: boolean;
  onError: (error: unknown) => void;
}): Promise<BenchReceiver> {
  const arrivals = new Map<string, Arrival>();
  const processed = new Map<string, number>();
  const refused = new Set<string>();
  const posts = { total: 0, refused503: 0, non200: 0 };
  const handler = createWebhookReceiver({
    partnerId: params.partnerId,
    secret: params.secret,
    store: new MemoryProcessedEventStore(),
    onError: params.onError,
    onEvent: (event) => {
      const at = performance.now();
      processed.set(event.eventId, (processed.get(event.eventId) ?? 0) + 1);
      if (!arrivals.has(event.eventId)) {
        arrivals.set(event.eventId, {
          eventId: event.eventId,
          event: event.event,
          attemptId: event.attemptId,
          at,
        });
      }
      return Promise.resolve();
    },
  });
  const server: Server = createServer((req, res) => {
    posts.total += 1;
    res.on('finish', () => {
      if (res.statusCode !== 200) posts.non200 += 1;
    });
    const eventId = req.headers[HEADER.eventId];
    if (params.refuseFirstTry && typeof eventId === 'string' && !refused.has(eventId)) {
      refused.add(eventId);
      posts.refused503 += 1;
      req.resume();
      res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"error":"unavailable"}');
      return;
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    arrivals,
    processed,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
