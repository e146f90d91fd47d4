import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/** What one chain's RPC was asked since the last take: HTTP requests, and JSON-RPC calls by method. */
export interface RpcCounts {
  requests: number;
  calls: Record<string, number>;
  /** How long the target took to answer each request (forwarded and read back), in ms. */
  upstreamMs: number[];
}

export interface RpcCounter {
  /** Where a client should send this chain's calls instead of `target`. */
  url: string;
  /** The counts since the last take, reset. */
  take(): RpcCounts;
  close(): Promise<void>;
}

/**
 * A loopback JSON-RPC pass-through that counts what goes by (a batch is one request of several calls). The quote
 * scenario points a service's CHAINS_FILE at one per chain to count a quote's source gas reads: never while it
 * times quotes, since the extra hop would count as theirs.
 */
export async function startRpcCounter(target: string): Promise<RpcCounter> {
  let counts: RpcCounts = { requests: 0, calls: {}, upstreamMs: [] };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const body = Buffer.concat((await req.toArray()) as Buffer[]);
    counts.requests += 1;
    try {
      const parsed = JSON.parse(body.toString()) as { method?: string } | { method?: string }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) {
        const method = call.method ?? '?';
        counts.calls[method] = (counts.calls[method] ?? 0) + 1;
      }
    } catch {
      counts.calls['(not JSON)'] = (counts.calls['(not JSON)'] ?? 0) + 1;
    }
    const sent = performance.now();
    const forwarded = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      body,
    });
    const answer = Buffer.from(await forwarded.arrayBuffer());
    counts.upstreamMs.push(performance.now() - sent);
    res
      .writeHead(forwarded.status, {
        'Content-Type': forwarded.headers.get('content-type') ?? 'application/json',
        'Content-Length': answer.length,
      })
      .end(answer);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.headersSent || res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    take: () => {
      const taken = counts;
      counts = { requests: 0, calls: {}, upstreamMs: [] };
      return taken;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
