import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import { join } from 'node:path';
import {
  type ApiWebhookEvent,
  constructEvent,
  IntentApiError,
  IntentClient,
  isIntentApiError,
  PartnerClientError,
  type QuoteRequest,
  WebhookSignatureError,
} from '@intent-service/partner-client';
import { executePrepared } from '@intent-service/partner-client/viem';
import { createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

/**
 * The TypeScript quickstart (docs/partners/typescript.md walks through it): receive webhooks, ping, quote, prepare,
 * the wallet's part in the sandbox, submitted, follow the attempt to its end, then the read-side operations and one
 * error of each kind. Run it against `npm start` (see the doc for the environment it reads).
 */
const env = process.env;
const say = (line: string): void => void process.stdout.write(`${line}\n`);
// The defaults are npm start's: its service, its demo partner (callbackUrl http://127.0.0.1:4000/webhooks) and its
// sandbox manifest. Run `DEV_WEBHOOK_RECEIVER=off npm start` so that port 4000 is left to this program.
const partnerId = env['PARTNER_ID'] || 'demo-partner';
const secret = env['PARTNER_SECRET'] || 'dev-only-secret-do-not-use-in-production';
const USDC = '0x700b6A60ce7EaaEA56F065753d8dcB9653dbAD35';
const ETH = '0x0000000000000000000000000000000000000000';
const authVersion = env['PARTNER_AUTH_VERSION'] === '1' ? 1 : 2;

// 1. The client: it signs every request, persists each POST's Idempotency-Key and retries what is safe to retry.
const client = new IntentClient({
  baseUrl: env['SERVICE_URL'] || 'http://127.0.0.1:3000',
  partnerId,
  secret,
  authVersion,
});

// 2. A webhook receiver: verify the raw bytes first, then deduplicate on eventId, then answer 2xx.
const verified = new Map<string, ApiWebhookEvent>();
const waiters: ((event: ApiWebhookEvent) => void)[] = [];
const receiver = createServer((req, res) => {
  void readRaw(req).then((raw) => {
    if (req.method !== 'POST' || req.url !== '/webhooks') return void res.writeHead(404).end();
    try {
      const event = constructEvent(raw, req.headers, secret, { partnerId });
      if (!verified.has(event.eventId)) {
        verified.set(event.eventId, event);
        say(`webhook ${event.event} attempt ${event.attemptId} eventId ${event.eventId} (verified)`);
        waiters.forEach((wake) => wake(event));
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: error.reason }));
    }
  });
});

async function main(): Promise<void> {
  await new Promise<void>((resolve) =>
    receiver.listen(Number(env['WEBHOOK_PORT'] || 4000), '127.0.0.1', resolve),
  );

  // 3. ping: are the credentials and the clock right? (A service still starting gets a minute to answer.)
  await untilAnswered(() => client.ping(), 60_000);
  say('op ping ok');

  // The sandbox's chains and funded wallets (npm start writes the manifest); the user is one of them.
  const manifest = JSON.parse(
    readFileSync(
      env['SANDBOX_MANIFEST'] || join(env['SANDBOX_MANIFEST_DIR'] || '.sandbox', 'manifest.json'),
      'utf8',
    ),
  ) as {
    chains: { chainId: number; name: string; rpcUrl: string }[];
    wallets: { users: { address: Hex; privateKey: Hex }[] };
  };
  const user = manifest.wallets.users[Number(env['SANDBOX_USER'] ?? 0)];

  // 4. quote: 5 USDC on Ethereum and 0.01 ETH on Arbitrum into USDC on Base. Raw amounts are strings.
  const request: QuoteRequest = {
    walletAddress: user.address,
    recipient: user.address,
    sources: [
      { chainId: 1, address: USDC, amount: '5000000', symbol: 'USDC', decimals: 6 },
      { chainId: 42161, address: ETH, amount: '10000000000000000', symbol: 'ETH', decimals: 18 },
    ],
    target: { chainId: 8453, address: USDC, targetToken: { address: USDC, symbol: 'USDC', decimals: 6 } },
  };
  const quote = await client.quote(request);
  say('op quote ok');
  if (quote.quoteStatus !== 'ready') throw new Error(`the quote is ${quote.quoteStatus}`);

  // 5. prepare: the attempt, the transactions per chain and the authorization the wallet signs.
  const prepared = await client.prepare(quote.intentSessionId);
  say('op prepare ok');

  // 6. The wallet's part (sandbox: a local account from the manifest), then `submitted` with the evidence.
  const account = privateKeyToAccount(user.privateKey);
  const walletFor = (chainId: number) => {
    const c = manifest.chains.find((x) => x.chainId === chainId)!;
    const chain = defineChain({
      id: c.chainId,
      name: c.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [c.rpcUrl] } },
    });
    return createWalletClient({ account, chain, transport: http(c.rpcUrl) });
  };
  const executed = await executePrepared(walletFor, prepared, {
    client,
    pollingIntervalMs: 100,
    onProgress: (step) => {
      if (step.kind === 'transaction_confirmed')
        say(`  chain ${step.chainId} tx ${step.index + 1}/${step.count} ${step.hash}`);
    },
  });
  say('op submitted ok');

  // 7. Follow the attempt live until it ends (the same events as the webhooks, over Server-Sent Events).
  let last = '';
  for await (const e of client.attemptEvents(prepared.attemptId)) {
    say(`  live ${e.event} (${e.data.status})`);
    last = e.data.status;
  }
  say('op attemptEvents ok');

  // 8. status: the source of truth.
  const status = await client.status(prepared.attemptId);
  say('op status ok');
  if (status.status !== 'settled')
    throw new Error(`the attempt ended ${status.status} (stream said ${last})`);

  // 9. The settled webhook, verified by the receiver above.
  const settled = await webhook(prepared.attemptId, 'settled', 30_000);

  // 10. Find attempts by wallet, one per page, through the pager (it follows nextCursor).
  const mine: string[] = [];
  for await (const a of client.attempts({ walletAddress: user.address, limit: 1 })) mine.push(a.attemptId);
  if (!mine.includes(prepared.attemptId)) throw new Error('the search did not find the attempt');
  say('op searchAttempts ok');

  // 11. Which attempt does this transaction belong to?
  const [chainResult] = executed.chainResults;
  await client.transactionAttempt(chainResult.chainId, chainResult.txHashes![0]);
  say('op transactionAttempt ok');

  // 12. The webhook log: every event through the pager, then only what came after a cursor you kept.
  let recorded = 0;
  for await (const record of client.webhookEventsAll()) recorded += record.deliveries.length > 0 ? 1 : 0;
  say(`  ${recorded} webhook events delivered at least once`);
  say('op webhookEvents ok');
  const firstPage = await client.webhookEvents();
  await client.webhookEventsAfter(firstPage.nextCursor);
  say('op webhookEventsAfter ok');

  // 13. Send the settled webhook again, and recover a time range.
  // Until the service has recorded that delivery (our 2xx), the event still counts as queued: wait a moment.
  for (let attempt = 1; ; attempt++) {
    try {
      await client.webhookRedeliver(settled.eventId);
      break;
    } catch (error) {
      if (!isIntentApiError(error, 'webhook_delivery_pending') || attempt === 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  say('op webhookRedeliver ok');
  const now = Date.now();
  await client.webhookRecover({
    from: new Date(now - 10 * 60_000).toISOString(),
    to: new Date(now).toISOString(),
  });
  say('op webhookRecover ok');

  // 14. Errors are typed: one of each kind, on purpose.
  await expectError(() => client.quote({ ...request, sources: [] }));
  await expectError(() => client.prepare('is_00000000000000000000000000000000'));
  const wrongSecret = new IntentClient({
    baseUrl: env['SERVICE_URL'] || 'http://127.0.0.1:3000',
    partnerId,
    secret: 'not-the-secret',
    authVersion,
  });
  await expectError(() => wrongSecret.ping());

  say(`settled ${prepared.attemptId} webhook ${settled.eventId} verified`);
}

/** Calls until an answer comes: PartnerClientError means no answer at all (nothing listening yet). */
async function untilAnswered<T>(call: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof PartnerClientError) || Date.now() > deadline) throw error;
      say(`  waiting for the service at ${env['SERVICE_URL'] || 'http://127.0.0.1:3000'}`);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

async function expectError(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof IntentApiError) return say(`error ${error.family} ${error.code}`);
    throw error;
  }
  throw new Error('the call was expected to fail');
}

/** Resolves with the verified webhook `event` of `attemptId` (already received or still to come). */
function webhook(attemptId: string, event: string, timeoutMs: number): Promise<ApiWebhookEvent> {
  const match = (e: ApiWebhookEvent) => e.attemptId === attemptId && e.event === event;
  const seen = [...verified.values()].find(match);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no verified ${event} webhook within ${timeoutMs} ms`)),
      timeoutMs,
    );
    waiters.push((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      resolve(e);
    });
  });
}

function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

main().then(
  () => {
    receiver.close();
    process.exit(0);
  },
  (error: unknown) => {
    process.stderr.write(`quickstart failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
