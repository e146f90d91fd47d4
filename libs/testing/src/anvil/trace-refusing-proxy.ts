import { createServer, type Server } from 'node:http';

/** A real RPC in front of anvil that, like most public endpoints, does not serve debug_traceTransaction. */
export async function startTraceRefusingProxy(target: string): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      res.setHeader('content-type', 'application/json');
      if (method === 'debug_traceTransaction') {
        res.end(JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32601, message: 'method not found' } }));
        return;
      }
      fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
        .then((r) => r.text())
        .then(
          (text) => res.end(text),
          () => res.destroy(),
        );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}
