import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { authenticateRequest } from '@svc/auth';
import { PartnerClient } from '../partner-client';
import { AttemptEventsError, type AttemptStreamEvent } from './follow-attempt-events';

const partner = { partnerId: 'partner-sse', secret: 'secret-sse-0123456789', authVersion: 2 as const };
const EVENTS = ['wallet_submitted', 'provider_pending', 'settled'].map((kind, i) => ({
  id: `evt_${i + 1}`,
  kind,
}));
const frame = (e: { id: string; kind: string }) =>
  `id: ${e.id}\nevent: ${e.kind}\ndata: ${JSON.stringify({ eventId: e.id, event: e.kind, attemptId: 'att_1' })}\n\n`;

interface Seen {
  lastEventId: string | undefined;
  authOk: boolean;
}

/**
 * A loopback SSE server that verifies every request with libs/auth, as the gateway does, and answers each
 * connection with the next scripted behaviour.
 */
async function startServer(
  script: ((req: IncomingMessage, res: ServerResponse, after: number) => void)[],
  status: () => string = () => 'provider_pending',
) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const auth = authenticateRequest(
      { method: req.method ?? '', rawUrl: req.url ?? '', rawHeaders: req.rawHeaders, body: Buffer.alloc(0) },
      (id) => (id === partner.partnerId ? partner : undefined),
      Date.now(),
    );
    if (req.url?.endsWith('/status')) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status() }));
      return;
    }
    const lastEventId = req.headers['last-event-id'] as string | undefined;
    seen.push({ lastEventId, authOk: auth.ok && req.url === '/api/external/attempts/att_1/events' });
    const after = lastEventId === undefined ? 0 : EVENTS.findIndex((e) => e.id === lastEventId) + 1;
    const next = script.shift();
    if (!next) return void res.writeHead(500).end();
    next(req, res, after);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new PartnerClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...partner,
    retryBaseDelayMs: 5,
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    seen,
    baseUrl,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const stream = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
/** Sends events [after, until) then, after a tick, ends cleanly or drops the connection. */
const serve =
  (until: number, end: 'end' | 'drop') => (req: IncomingMessage, res: ServerResponse, after: number) => {
    stream(res).write(': live status\n\n');
    for (const e of EVENTS.slice(after, until)) res.write(frame(e));
    setTimeout(() => (end === 'end' ? res.end() : req.socket.destroy()), 20);
  };

async function collect(iterator: AsyncIterable<AttemptStreamEvent>): Promise<AttemptStreamEvent[]> {
  const got: AttemptStreamEvent[] = [];
  for await (const e of iterator) got.push(e);
  return got;
}

describe('PartnerClient.followAttemptEvents (SSE on loopback, signed and verified by libs/auth)', () => {
  it('yields every lifecycle event once, in order, and ends after settled', async () => {
    const s = await startServer([serve(3, 'end')]);
    try {
      const got = await collect(s.client.followAttemptEvents('att_1'));
      expect(got.map((e) => [e.id, e.event, e.data.eventId])).toEqual([
        ['evt_1', 'wallet_submitted', 'evt_1'],
        ['evt_2', 'provider_pending', 'evt_2'],
        ['evt_3', 'settled', 'evt_3'],
      ]);
      expect(s.seen).toEqual([{ lastEventId: undefined, authOk: true }]);
    } finally {
      await s.close();
    }
  });

  it('reconnects after a dropped connection and after an early end, resuming with Last-Event-ID', async () => {
    const s = await startServer([serve(1, 'drop'), serve(2, 'end'), serve(3, 'end')]);
    try {
      const got = await collect(s.client.followAttemptEvents('att_1'));
      expect(got.map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
      expect(s.seen).toEqual([
        { lastEventId: undefined, authOk: true },
        { lastEventId: 'evt_1', authOk: true },
        { lastEventId: 'evt_2', authOk: true },
      ]);
    } finally {
      await s.close();
    }
  });

  it("skips a message without an id of its own, and waits the server's retry before reconnecting", async () => {
    const opened: number[] = [];
    const s = await startServer([
      (_req, res) => {
        opened.push(Date.now());
        stream(res).write(`retry: 400\n\n${frame(EVENTS[0])}data: {"eventId":"not-an-event"}\n\n`);
        setTimeout(() => res.end(), 20);
      },
      (req, res, after) => {
        opened.push(Date.now());
        serve(3, 'end')(req, res, after);
      },
    ]);
    try {
      const got = await collect(s.client.followAttemptEvents('att_1'));
      expect(got.map((e) => [e.id, e.data.eventId])).toEqual([
        ['evt_1', 'evt_1'],
        ['evt_2', 'evt_2'],
        ['evt_3', 'evt_3'],
      ]);
      expect(s.seen.map((x) => x.lastEventId)).toEqual([undefined, 'evt_1']);
      expect(opened[1] - opened[0]).toBeGreaterThanOrEqual(400);
    } finally {
      await s.close();
    }
  });

  it('keeps reconnecting through streams that a proxy closes after a while, however many', async () => {
    const quiet = (_req: IncomingMessage, res: ServerResponse) => {
      stream(res).write(': heartbeat\n\n');
      setTimeout(() => res.end(), 5);
    };
    const s = await startServer([quiet, quiet, quiet, quiet, quiet, serve(3, 'end')]);
    try {
      // The client's clock moves 5.5 s per reading, so on it each connection stays open over 10 s.
      let t = Date.now();
      const client = new PartnerClient({
        baseUrl: s.baseUrl,
        ...partner,
        retryBaseDelayMs: 5,
        now: () => (t += 5_500),
      });
      const got = await collect(client.followAttemptEvents('att_1'));
      expect(got.map((e) => e.id)).toEqual(['evt_1', 'evt_2', 'evt_3']);
      expect(s.seen).toHaveLength(6);
    } finally {
      await s.close();
    }
  });

  it('gives up after maxRetries streams that end at once without an event', async () => {
    const quiet = (_req: IncomingMessage, res: ServerResponse) => void stream(res).end();
    const s = await startServer([quiet, quiet, quiet, quiet, quiet]);
    try {
      await expect(collect(s.client.followAttemptEvents('att_1'))).rejects.toThrow(
        /ended before the attempt/,
      );
      expect(s.seen).toHaveLength(4);
    } finally {
      await s.close();
    }
  });

  it('starts after the given lastEventId', async () => {
    const s = await startServer([serve(3, 'end')]);
    try {
      const got = await collect(s.client.followAttemptEvents('att_1', { lastEventId: 'evt_2' }));
      expect(got.map((e) => e.id)).toEqual(['evt_3']);
      expect(s.seen[0]?.lastEventId).toBe('evt_2');
    } finally {
      await s.close();
    }
  });

  it('ends without an error when the stream ends and status says the attempt expired', async () => {
    const s = await startServer([serve(1, 'end')], () => 'expired');
    try {
      expect((await collect(s.client.followAttemptEvents('att_1'))).map((e) => e.id)).toEqual(['evt_1']);
    } finally {
      await s.close();
    }
  });

  it('retries a 429 and a 503, then throws AttemptEventsError with the code of a refusal', async () => {
    const refuse = (status: number, code: string) => (_req: IncomingMessage, res: ServerResponse) =>
      res
        .writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' })
        .end(JSON.stringify({ code }));
    const s = await startServer([
      refuse(429, 'live_stream_limit_reached'),
      refuse(503, 'service_unavailable'),
      refuse(404, 'attempt_not_found'),
    ]);
    try {
      const error = await collect(s.client.followAttemptEvents('att_1')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AttemptEventsError);
      expect((error as AttemptEventsError).response).toMatchObject({
        status: 404,
        body: { code: 'attempt_not_found' },
      });
      expect(s.seen).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  it('stops when the caller breaks out or aborts, closing the connection', async () => {
    const hold = (_req: IncomingMessage, res: ServerResponse) => {
      stream(res).write(frame(EVENTS[0]));
    };
    const s = await startServer([hold, hold]);
    try {
      for await (const e of s.client.followAttemptEvents('att_1')) {
        expect(e.id).toBe('evt_1');
        break;
      }
      const controller = new AbortController();
      const got: string[] = [];
      for await (const e of s.client.followAttemptEvents('att_1', { signal: controller.signal })) {
        got.push(e.id);
        controller.abort();
      }
      expect(got).toEqual(['evt_1']);
      expect(s.seen).toHaveLength(2);
    } finally {
      await s.close();
    }
  });
});
