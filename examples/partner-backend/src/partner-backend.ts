import { type IncomingMessage, type ServerResponse } from 'node:http';
import {
  createWebhookReceiver,
  type PartnerClient,
  type PartnerResponse,
  type ProcessedEventStore,
  type WebhookEvent,
} from '@intent-service/partner-client';
import { type PreparedAttempt, type WalletResult } from './wallet-types';

/** What this backend remembers of one checkout (a real one keeps it in its database). */
export interface Order {
  attemptId: string;
  intentSessionId: string;
  /** The latest status a verified webhook announced ('prepared' until the first one). */
  status: string;
  /** Verified webhooks, in the order they arrived, each eventId once. */
  webhooks: { eventId: string; event: string }[];
  /** The same lifecycle events, as read from the live status stream (SSE). */
  live: { eventId: string; event: string }[];
}

export interface PartnerBackendOptions {
  client: PartnerClient;
  partnerId: string;
  /** The partner secret: webhooks are signed with it. */
  secret: string;
  /** Where verified eventIds are recorded before the 2xx (use a durable store: a file, a database). */
  processedEvents: ProcessedEventStore;
  /**
   * SANDBOX ONLY. Plays the user's wallet with a development key, so the flow can be driven without a browser.
   * Never configure this against a real deployment: in production the wallet is the user's own, in their browser.
   */
  sandboxWallet?: (prepared: PreparedAttempt) => Promise<WalletResult>;
  log?: (line: string) => void;
}

export type PartnerBackend = ((req: IncomingMessage, res: ServerResponse) => void) & {
  orders: Map<string, Order>;
};

/**
 * A partner's backend in a few routes, on node:http and the SDK:
 *
 *   POST /checkout                    quote, then prepare: returns what the user's wallet must do
 *   POST /orders/{attemptId}/submitted the frontend reports the wallet's transactions and signature; forwarded
 *   GET  /orders/{attemptId}          what this backend knows (from webhooks and the live stream)
 *   POST /webhooks                    the service's signed webhooks: verified, deduplicated, logged
 *   POST /sandbox/orders/{id}/pay     SANDBOX ONLY (see sandboxWallet): the wallet part, then submitted
 */
export function createPartnerBackend(options: PartnerBackendOptions): PartnerBackend {
  const { client } = options;
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const orders = new Map<string, Order>();
  const prepared = new Map<string, PreparedAttempt>();

  const webhooks = createWebhookReceiver({
    partnerId: options.partnerId,
    secret: options.secret,
    store: options.processedEvents,
    // Runs once per eventId, after the signature, timestamp and partner id were checked on the raw bytes.
    onEvent: (event: WebhookEvent) => {
      log(`webhook ${event.event} attempt ${event.attemptId ?? '-'} eventId ${event.eventId} (verified)`);
      const order = event.attemptId === undefined ? undefined : orders.get(event.attemptId);
      if (order) {
        order.webhooks.push({ eventId: event.eventId, event: event.event });
        order.status = event.event;
      }
      return Promise.resolve();
    },
    onError: (error) => log(`webhook processing failed: ${String(error)}`),
  });

  /** Quote, then prepare at once: the quote's intent session lasts about 60 s. */
  async function checkout(quoteRequest: unknown): Promise<[number, unknown]> {
    const quote = await client.quote(quoteRequest as object);
    if (quote.status !== 200) return [quote.status, quote.body];
    const { intentSessionId, quoteStatus } = quote.body as { intentSessionId: string; quoteStatus?: string };
    // `partial_only` covers part of the target: a real checkout would show that to the user first.
    if (quoteStatus === 'unavailable' || quoteStatus === 'expired') return [409, quote.body];
    // An empty body (`walletContext` omitted) yields plain sendTransaction actions, which any wallet can execute.
    const prepare = await client.prepare(intentSessionId, {});
    if (prepare.status !== 200) return [prepare.status, prepare.body];
    const attempt = prepare.body as PreparedAttempt;
    prepared.set(attempt.attemptId, attempt);
    orders.set(attempt.attemptId, {
      attemptId: attempt.attemptId,
      intentSessionId,
      status: 'prepared',
      webhooks: [],
      live: [],
    });
    log(`checkout: attempt ${attempt.attemptId} prepared, the wallet must act before ${attempt.expiresAt}`);
    // Hand these to the frontend: the wallet executes `chainActions` and signs `walletAuthorization` (EIP-712).
    return [200, attempt];
  }

  /** The frontend's report: every transaction hash per chain, and the EIP-712 signature. */
  async function submitted(attemptId: string, result: WalletResult): Promise<[number, unknown]> {
    const answer: PartnerResponse = await client.submitted(
      attemptId,
      { chainResults: result.chainResults, walletAuthorization: { signature: result.signature } },
      // One operation per attempt: a retry after a crash resends the same key and bytes.
      { operationId: `submitted:${attemptId}` },
    );
    if (answer.status === 200) follow(attemptId);
    return [answer.status, answer.body];
  }

  /** Optional, beside the webhooks: the live status stream, until the attempt ends. */
  function follow(attemptId: string): void {
    void (async () => {
      for await (const e of client.followAttemptEvents(attemptId)) {
        orders.get(attemptId)?.live.push({ eventId: e.id, event: e.event });
      }
    })().catch((error: unknown) => log(`live status of ${attemptId} stopped: ${String(error)}`));
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0] ?? '';
    const method = req.method ?? '';
    if (method === 'POST' && path === '/webhooks') return webhooks(req, res);
    if (method === 'POST' && path === '/checkout')
      return reply(res, ...(await checkout(await readJson(req))));
    let match = /^\/orders\/([^/]+)\/submitted$/.exec(path);
    if (method === 'POST' && match)
      return reply(res, ...(await submitted(match[1], (await readJson(req)) as WalletResult)));
    match = /^\/orders\/([^/]+)$/.exec(path);
    if (method === 'GET' && match) {
      const order = orders.get(match[1]);
      return order ? reply(res, 200, order) : reply(res, 404, { error: 'no such order' });
    }
    match = /^\/sandbox\/orders\/([^/]+)\/pay$/.exec(path);
    if (method === 'POST' && match && options.sandboxWallet) {
      const attempt = prepared.get(match[1]);
      if (!attempt) return reply(res, 404, { error: 'no such order' });
      return reply(res, ...(await submitted(attempt.attemptId, await options.sandboxWallet(attempt))));
    }
    reply(res, 404, { error: 'not found' });
  }

  const handler = ((req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      log(`${req.method} ${req.url} failed: ${String(error)}`);
      if (!res.headersSent) reply(res, 500, { error: 'internal error' });
    });
  }) as PartnerBackend;
  handler.orders = orders;
  return handler;
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? {} : (JSON.parse(text) as unknown);
}
