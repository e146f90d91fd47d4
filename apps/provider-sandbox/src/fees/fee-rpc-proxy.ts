import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AnvilStartError } from '@svc/testing';
import { type Hex, numberToHex, parseTransaction } from 'viem';

export interface FeeRpcProxy {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Passes a transaction on: the sandbox sets the next block's base fee first, and keeps L1 fee charges off meanwhile. */
export interface FeeRpcHooks {
  send: (
    feeCaps: readonly bigint[],
    forward: () => Promise<string>,
    sent: (answer: string) => Hex[],
  ) => Promise<string>;
}

interface RpcCall {
  jsonrpc?: string;
  id?: unknown;
  method?: string;
}

/** The fee caps (maxFeePerGas, else gasPrice) of the transactions a request sends; what cannot be read is left out. */
function feeCaps(body: string): bigint[] {
  try {
    const parsed = JSON.parse(body) as RpcCall | RpcCall[];
    return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((call) => {
      const param = (call as { params?: unknown[] }).params?.[0];
      if (call.method === 'eth_sendRawTransaction' && typeof param === 'string') {
        const tx = parseTransaction(param as Hex);
        const cap = tx.maxFeePerGas ?? tx.gasPrice;
        return cap === undefined ? [] : [cap];
      }
      if (call.method === 'eth_sendTransaction' && param && typeof param === 'object') {
        const { maxFeePerGas, gasPrice } = param as { maxFeePerGas?: string; gasPrice?: string };
        const cap = maxFeePerGas ?? gasPrice;
        return cap === undefined ? [] : [BigInt(cap)];
      }
      return [];
    });
  } catch {
    return [];
  }
}

/** The hashes of the transactions anvil took: its answers (one call or a batch) to the request's sending calls. */
function sentHashes(body: string, answer: string): Hex[] {
  try {
    const calls = JSON.parse(body) as RpcCall | RpcCall[];
    const sending = new Set(
      (Array.isArray(calls) ? calls : [calls])
        .filter((c) => c.method === 'eth_sendRawTransaction' || c.method === 'eth_sendTransaction')
        .map((c) => JSON.stringify(c.id)),
    );
    const replies = JSON.parse(answer) as
      (RpcCall & { result?: unknown }) | (RpcCall & { result?: unknown })[];
    return (Array.isArray(replies) ? replies : [replies]).flatMap((reply) =>
      sending.has(JSON.stringify(reply?.id)) &&
      typeof reply.result === 'string' &&
      /^0x[0-9a-fA-F]{64}$/.test(reply.result)
        ? [reply.result as Hex]
        : [],
    );
  } catch {
    return [];
  }
}

const ANSWERED = new Set(['eth_maxPriorityFeePerGas', 'eth_gasPrice', 'eth_fillTransaction']);

/**
 * The sandbox chain's RPC: anvil behind it, except that `eth_maxPriorityFeePerGas` answers the chain's tip and
 * `eth_gasPrice` the pending block's base fee plus that tip. anvil 1.7.1 answers the first with at least 1 gwei
 * whatever the chain, far above an L2's tip, and wallets pay what it says. `eth_fillTransaction` is refused as not
 * available (as many hosted nodes do): anvil's would fill in its own 1 gwei tip, and viem 2.57 asks it first, then
 * falls back to eth_maxPriorityFeePerGas. Every other call goes through untouched, a transaction once
 * `hooks.beforeSend` has run.
 */
export async function startFeeRpcProxy(params: {
  target: string;
  tip: bigint;
  port?: number;
  host?: string;
  hooks?: FeeRpcHooks;
}): Promise<FeeRpcProxy> {
  const forward = async (body: string) => {
    const response = await fetch(params.target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return response.text();
  };
  const answer = async (call: RpcCall): Promise<unknown> => {
    if (call.method === 'eth_fillTransaction') {
      return {
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: 'the method eth_fillTransaction does not exist/is not available' },
      };
    }
    if (call.method === 'eth_maxPriorityFeePerGas') {
      return { jsonrpc: '2.0', id: call.id, result: numberToHex(params.tip) };
    }
    const pending = JSON.parse(
      await forward(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBlockByNumber', params: ['pending', false] }),
      ),
    ) as { result?: { baseFeePerGas?: string } };
    const baseFee = BigInt(pending.result?.baseFeePerGas ?? '0x0');
    return { jsonrpc: '2.0', id: call.id, result: numberToHex(baseFee + params.tip) };
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString();
    let text: string;
    if (params.hooks && /eth_sendRawTransaction|eth_sendTransaction/.test(body)) {
      // anvil mines a transaction as it arrives: its block must have the keeper's base fee, not anvil's decayed one.
      text = await params.hooks.send(
        feeCaps(body),
        () => forward(body),
        (answer) => sentHashes(body, answer),
      );
    } else if (!/eth_maxPriorityFeePerGas|eth_gasPrice|eth_fillTransaction/.test(body)) {
      text = await forward(body);
    } else {
      const parsed = JSON.parse(body) as RpcCall | RpcCall[];
      const calls = Array.isArray(parsed) ? parsed : [parsed];
      const isFee = (c: RpcCall) => ANSWERED.has(c.method ?? '');
      // The other calls go on as one batch, in their order (a batch may hold transactions of one sender).
      const others = calls.filter((c) => !isFee(c));
      const forwarded = others.length ? (JSON.parse(await forward(JSON.stringify(others))) as unknown[]) : [];
      const byId = new Map(forwarded.map((r) => [JSON.stringify((r as RpcCall).id), r]));
      const replies: unknown[] = [];
      for (const call of calls)
        replies.push(isFee(call) ? await answer(call) : byId.get(JSON.stringify(call.id)));
      text = JSON.stringify(Array.isArray(parsed) ? replies : replies[0]);
    }
    res.setHeader('content-type', 'application/json').end(text);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new AnvilStartError(
          `chain RPC on port ${params.port ?? 0}: ${error.message}`,
          error.code === 'EADDRINUSE',
        ),
      ),
    );
    server.listen(params.port ?? 0, params.host ?? '127.0.0.1', resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
