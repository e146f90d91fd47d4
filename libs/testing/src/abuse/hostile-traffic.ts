import { connect, type Socket } from 'node:net';

/**
 * One hostile client (issue 23 item 7, the abuse test): from one address it sends `count` requests meant to hurt the service: 200
 * slowloris connections and 40 never-ending bodies at once, kept going for `slowForMs`, and meanwhile the rest (bad
 * signatures, oversized bodies, HTTP/2 prefaces, no Host, header floods) as fast as `concurrency` connections allow;
 * and counts what it was answered. The abuse test runs it in a process of its own
 * (tools/abuse/hostile-client.ts), so that its own CPU is not the service's.
 */
export interface HostileOptions {
  port: number;
  host: string;
  /** The address it sends from (another loopback address, so that it is another client). */
  from: string;
  count: number;
  concurrency: number;
  /** How long a slow request (slowloris, never-ending body) is kept going before the client gives up on it. */
  slowForMs: number;
  /** The partner id the forged requests claim. */
  claimedPartnerId: string;
}

export interface HostileFigures {
  sent: number;
  /** Answers by status (`closed` when the connection closed with no answer). */
  answers: Record<string, number>;
  kinds: Record<HostileKind, number>;
  durationMs: number;
}

type HostileKind =
  | 'bad_signature'
  | 'slowloris'
  | 'oversized_body'
  | 'never_ending_body'
  | 'http2_preface'
  | 'no_host'
  | 'header_flood';

/**
 * The slow requests, all started at once and kept going for `slowForMs`: with the fast ones' connections, just under
 * one client's connection share (256 by default), so that every kind reaches the server rather than being refused
 * at connect (the share itself is tested on its own).
 */
const SLOW: [HostileKind, number][] = [
  ['slowloris', 200],
  ['never_ending_body', 40],
];

/** The rest, out of 10, sent one after another on `concurrency` connections: mostly bad signatures. */
const FAST: HostileKind[] = [
  ...Array<HostileKind>(6).fill('bad_signature'),
  'oversized_body',
  'http2_preface',
  'no_host',
  'header_flood',
];

const PING = '/api/external/ping';
const QUOTE = '/api/external/intents/quote';

export async function sendHostileTraffic(options: HostileOptions): Promise<HostileFigures> {
  const started = Date.now();
  const answers: Record<string, number> = {};
  const kinds = Object.fromEntries([...SLOW.map(([k]) => k), ...FAST].map((k) => [k, 0])) as Record<
    HostileKind,
    number
  >;
  const send = async (kind: HostileKind) => {
    kinds[kind]++;
    const status = await oneRequest(kind, options);
    answers[status] = (answers[status] ?? 0) + 1;
  };
  const slow = SLOW.flatMap(([kind, n]) => Array<HostileKind>(n).fill(kind));
  const fastCount = Math.max(0, options.count - slow.length);
  let next = 0;
  const worker = async () => {
    while (next < fastCount) await send(FAST[next++ % FAST.length]);
  };
  await Promise.all([...slow.map(send), ...Array.from({ length: options.concurrency }, worker)]);
  return { sent: slow.length + fastCount, answers, kinds, durationMs: Date.now() - started };
}

function forgedAuth(partnerId: string): string {
  return `X-Partner-Id: ${partnerId}\r\nX-Timestamp: ${Date.now()}\r\nX-Signature: ${'0'.repeat(64)}\r\n`;
}

/** One hostile request on a connection of its own; resolves with the answer's status, or `closed`. */
function oneRequest(kind: HostileKind, o: HostileOptions): Promise<string> {
  const auth = forgedAuth(o.claimedPartnerId);
  switch (kind) {
    case 'bad_signature':
      return exchange(o, [`GET ${PING} HTTP/1.1\r\nHost: x\r\n${auth}\r\n`]);
    case 'slowloris':
      // Headers a few bytes at a time, never finished.
      return exchange(o, [
        `GET ${PING} HTTP/1.1\r\nHost: x\r\n`,
        ...Array.from({ length: Math.ceil(o.slowForMs / 500) }, (_, i) => [500, `X-S${i}: 1\r\n`]).flat(),
      ]);
    case 'oversized_body':
      return exchange(o, [
        `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nContent-Length: 10485760\r\n\r\n`,
        Buffer.alloc(64 * 1024, 0x20),
      ]);
    case 'never_ending_body':
      // A chunked body, a chunk every 100 ms, never ended.
      return exchange(o, [
        `POST ${QUOTE} HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
        ...Array.from({ length: Math.ceil(o.slowForMs / 100) }, () => [
          100,
          `4000\r\n${' '.repeat(0x4000)}\r\n`,
        ]).flat(),
      ]);
    case 'http2_preface':
      return exchange(o, ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n']);
    case 'no_host':
      return exchange(o, [`GET ${PING} HTTP/1.1\r\n${auth}\r\n`]);
    case 'header_flood':
      return exchange(o, [
        `GET ${PING} HTTP/1.1\r\nHost: x\r\n${auth}${Array.from({ length: 2000 }, (_, i) => `X-F${i}: ${'a'.repeat(16)}\r\n`).join('')}\r\n`,
      ]);
  }
}

/** Writes each chunk (a number waits that long), and resolves with the first status line's code, or `closed`. */
function exchange(o: HostileOptions, chunks: (string | Buffer | number)[]): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    let settled = false;
    const socket: Socket = connect({ port: o.port, host: o.host, localAddress: o.from });
    const settle = (status: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(status);
    };
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const line = /^HTTP\/1\.1 (\d{3})/.exec(received);
      if (line) settle(line[1]);
    });
    socket.on('error', () => settle('closed'));
    socket.on('close', () => settle('closed'));
    socket.setTimeout(o.slowForMs + 5000, () => settle('no_answer'));
    socket.on('connect', () => {
      void (async () => {
        for (const chunk of chunks) {
          if (settled || socket.destroyed || socket.writableEnded) return;
          if (typeof chunk === 'number') await new Promise((r) => setTimeout(r, chunk));
          else socket.write(chunk);
        }
      })();
    });
  });
}
