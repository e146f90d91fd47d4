import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { type FanOut, FanOutLog } from './fan-out-log';

interface Recording {
  method: string;
  url: string;
  requestBody: Buffer;
  status: number;
  contentType: string;
  body: Buffer;
}

export interface StubProviders {
  /** Where the service should send a provider's calls: `http://127.0.0.1:<port>/<name>`. */
  urlOf(name: string): string;
  /** Drops every recording: the next call of each kind is forwarded and recorded afresh. */
  forget(): void;
  /** Providers whose calls are held open and never answered (a hanging provider). */
  setHanging(names: readonly string[]): void;
  /** Providers whose replayed answers come this much later than the others' (a slower provider); {} for none. */
  setExtraDelay(extra: Readonly<Record<string, number>>): void;
  /** Calls answered from a recording, and calls forwarded to the upstream (and recorded) so far. */
  readonly counts: { replayed: number; forwarded: number };
  /** The calls received since the last take, by round: one quote's whole fan-out (FanOutLog). */
  takeFanOut(): FanOut;
  /** Sends a fan-out's recorded calls to the stubs from here, a round at a time; ms until the last answered. */
  replay(fanOut: FanOut): Promise<number>;
  close(): Promise<void>;
}

/**
 * Provider stubs for the quote scenario: a loopback server in front of the provider sandbox that forwards a call it
 * has not seen to the sandbox once, records the answer, and from then on replays it after exactly `delayMs` from a
 * timer. The answers are the sandbox's own (so every check the service makes on them still runs), but answering
 * costs next to no CPU, so a quote's time above the delay is the service's.
 */
export async function startStubProviders(params: {
  upstreams: Readonly<Record<string, string>>;
  delayMs: number;
}): Promise<StubProviders> {
  const recordings = new Map<string, Recording>();
  const hanging = new Set<string>();
  let extraDelay: Readonly<Record<string, number>> = {};
  const held = new Set<ServerResponse>();
  const counts = { replayed: 0, forwarded: 0 };
  const log = new FanOutLog();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const name = url.split('/')[1] ?? '';
    const upstream = params.upstreams[name];
    const requestBody = Buffer.concat((await req.toArray()) as Buffer[]);
    if (upstream === undefined) return void res.writeHead(404).end();
    if (hanging.has(name)) {
      held.add(res);
      res.on('close', () => held.delete(res));
      return;
    }
    const key = `${req.method} ${url} ${createHash('sha256').update(requestBody).digest('hex')}`;
    const call = log.arrive(key, name);
    res.on('finish', () => call.answered());
    const recorded = recordings.get(key);
    if (recorded) {
      counts.replayed += 1;
      setTimeout(() => answer(res, recorded), params.delayMs + (extraDelay[name] ?? 0));
      return;
    }
    counts.forwarded += 1;
    const forwarded = await fetch(upstream + url.slice(name.length + 1), {
      method: req.method,
      headers: forwardedHeaders(req),
      body: req.method === 'GET' || req.method === 'HEAD' ? undefined : requestBody,
    });
    const recording: Recording = {
      method: req.method ?? 'GET',
      url,
      requestBody,
      status: forwarded.status,
      contentType: forwarded.headers.get('content-type') ?? 'application/json',
      body: Buffer.from(await forwarded.arrayBuffer()),
    };
    // A refusal to slow down or a server fault is not the provider's answer to this request: ask again next time.
    if (recording.status !== 429 && recording.status < 500) recordings.set(key, recording);
    answer(res, recording);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.headersSent || res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    urlOf: (name) => `${base}/${name}`,
    forget: () => recordings.clear(),
    setExtraDelay: (extra) => {
      extraDelay = extra;
    },
    setHanging: (names) => {
      hanging.clear();
      names.forEach((n) => hanging.add(n));
      for (const res of held) res.destroy();
    },
    counts,
    takeFanOut: () => log.take(),
    replay: async (fanOut) => {
      const started = performance.now();
      for (const round of fanOut.rounds) {
        await Promise.all(
          round.map(async (key) => {
            const r = recordings.get(key);
            if (!r) return;
            const res = await fetch(base + r.url, {
              method: r.method,
              body: r.method === 'GET' ? undefined : r.requestBody,
              headers: { 'content-type': 'application/json' },
            });
            await res.arrayBuffer();
          }),
        );
      }
      return performance.now() - started;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, r: Recording): void {
  res.writeHead(r.status, { 'Content-Type': r.contentType, 'Content-Length': r.body.length }).end(r.body);
}

function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (['host', 'connection', 'content-length', 'transfer-encoding'].includes(name)) continue;
    if (typeof value === 'string') headers[name] = value;
  }
  return headers;
}
