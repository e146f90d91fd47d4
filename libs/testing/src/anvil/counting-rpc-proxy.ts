import { createServer, type Server } from 'node:http';

export interface CountingRpcProxy {
  url: string;
  /** The JSON-RPC methods forwarded so far, in order (each call of a batch counts). */
  methods: string[];
  close(): Promise<void>;
}

/** A real RPC endpoint in front of `target` (an anvil node) that records every method it forwards. */
export async function startCountingRpcProxy(target: string): Promise<CountingRpcProxy> {
  const methods: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const parsed = JSON.parse(body) as { method: string } | { method: string }[];
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) methods.push(call.method);
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
