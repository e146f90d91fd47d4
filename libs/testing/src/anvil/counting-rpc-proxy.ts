import { createServer, type Server } from 'node:http';

export interface CountingRpcProxy {
  url: string;
  /** The JSON-RPC methods forwarded so far, in order (each call of a batch counts). */
  methods: string[];
  /** The block range of every eth_getLogs asked for (toBlock − fromBlock + 1), refused or not. */
  logsRanges: number[];
  close(): Promise<void>;
}

/**
 * A real RPC endpoint in front of `target` (an anvil node) that records every method it forwards. With
 * `maxLogsRange`, like many hosted nodes it refuses an eth_getLogs over a wider block range (JSON-RPC error -32005).
 */
export async function startCountingRpcProxy(
  target: string,
  options: { maxLogsRange?: number } = {},
): Promise<CountingRpcProxy> {
  const methods: string[] = [];
  const logsRanges: number[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) methods.push(call.method);
      const refusal = Array.isArray(parsed) ? null : rangeRefusal(parsed, logsRanges, options.maxLogsRange);
      if (refusal !== null) return void res.setHeader('content-type', 'application/json').end(refusal);
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then((r) => r.text())
        .then(
          (text) => res.setHeader('content-type', 'application/json').end(text),
          () => res.destroy(),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    methods,
    logsRanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface RpcCall {
  id?: number;
  method: string;
  params?: { fromBlock?: string; toBlock?: string }[];
}

/** The JSON-RPC error a range-limited node answers, or null to forward the call. */
function rangeRefusal(call: RpcCall, ranges: number[], limit: number | undefined): string | null {
  const { fromBlock, toBlock } = call.params?.[0] ?? {};
  if (call.method !== 'eth_getLogs' || fromBlock === undefined || toBlock === undefined) return null;
  const range = Number(BigInt(toBlock) - BigInt(fromBlock)) + 1;
  ranges.push(range);
  if (limit === undefined || range <= limit) return null;
  return JSON.stringify({
    jsonrpc: '2.0',
    id: call.id,
    error: { code: -32005, message: `query exceeds max block range ${limit}` },
  });
}
