import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { BenchFailure } from '../bench-failure';

/** One request of a load run: built afresh for every send (a new nonce, a new signature). */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

export interface LoadOptions {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Connections, each sending its next request as soon as the last one answered (closed loop). */
  concurrency: number;
  /** Stop starting requests after this long… */
  durationMs?: number;
  /** …or after this many. */
  requests?: number;
  next: () => LoadRequest;
  expectStatus?: number;
}

export interface LoadResult {
  completed: number;
  elapsedMs: number;
  perSecond: number;
  /** Milliseconds, in completion order. */
  latencies: number[];
}

/**
 * A closed-loop load generator on node:http with a keep-alive agent: `concurrency` connections, each with one request
 * in flight. Any answer but `expectStatus` fails the run: a benchmark of refusals measures nothing.
 */
export async function driveLoad(options: LoadOptions): Promise<LoadResult> {
  const { hostname, port } = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const expect = options.expectStatus ?? 200;
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  let issued = 0;
  const more = () =>
    performance.now() < deadline && (options.requests === undefined || issued < options.requests);

  const worker = async () => {
    while (more()) {
      issued += 1;
      const next = options.next();
      const sent = performance.now();
      const { status, body } = await send(agent, hostname, Number(port), next);
      if (status !== expect) {
        throw new BenchFailure(`${next.method} ${next.path} answered ${status}: ${body.slice(0, 300)}`);
      }
      latencies.push(performance.now() - sent);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const elapsedMs = performance.now() - started;
  return {
    completed: latencies.length,
    elapsedMs,
    perSecond: latencies.length / (elapsedMs / 1000),
    latencies,
  };
}

function send(
  agent: Agent,
  host: string,
  port: number,
  req: LoadRequest,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { agent, host, port, method: req.method, path: req.path, headers: req.headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(req.body);
  });
}
