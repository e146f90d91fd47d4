import { createServer, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestPartner, signedRequest } from '@svc/testing';
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { formatted } from './openapi-files';
import { CAPTURED_PATH, REPO_ROOT } from './paths';

/**
 * `npm run openapi:capture`, with `npm start` running: drives one real flow through the public API (quote USDC on
 * chains 1 and 42161 into USDC on 8453, prepare, execute every returned transaction from the sandbox's funded wallet,
 * sign the authorization, report it, follow status to `settled`), receives the webhooks on the dev partner's callback
 * port, and writes every body to tools/openapi/examples/captured.json. The spec validates them against the document
 * with every object closed, so a field the service sends and the document lacks fails the tests.
 *
 * Environment: SERVICE_URL (default http://127.0.0.1:3000), SANDBOX_MANIFEST_DIR (default .sandbox), WEBHOOK_PORT
 * (default 4000, the callback port of config/partners.dev.json).
 */

interface Manifest {
  chains: { chainId: number; name: string; rpcUrl: string }[];
  tokens: { chainId: number; symbol: string; address: string; decimals: number }[];
  wallets: { users: { address: string; privateKey: string }[] };
}

interface Prepared {
  attemptId: string;
  chainActions: { chainId: number; transactions: { to: Hex; data: Hex; value: string }[] | null }[];
  walletAuthorization: Parameters<ReturnType<typeof privateKeyToAccount>['signTypedData']>[0];
}

async function main(): Promise<void> {
  const serviceUrl = new URL(process.env['SERVICE_URL'] ?? 'http://127.0.0.1:3000');
  const manifestDir = process.env['SANDBOX_MANIFEST_DIR'] ?? join(REPO_ROOT, '.sandbox');
  const manifest = JSON.parse(readFileSync(join(manifestDir, 'manifest.json'), 'utf8')) as Manifest;
  const partners = JSON.parse(readFileSync(join(REPO_ROOT, 'config/partners.dev.json'), 'utf8')) as {
    partners: (TestPartner & { callbackUrl: string })[];
  };
  const partner = partners.partners[0];
  const webhooks: unknown[] = [];
  const receiver = await listen(Number(process.env['WEBHOOK_PORT'] ?? 4000), webhooks);

  const api = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> => {
    const res = await signedRequest({ port: Number(serviceUrl.port), partner, method, path, body });
    return { status: res.status, json: res.json };
  };
  const ok = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await api(method, path, body);
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.json)}`);
    return res.json as T;
  };

  const user = manifest.wallets.users[0];
  const usdc = (chainId: number) =>
    manifest.tokens.find((t) => t.chainId === chainId && t.symbol === 'USDC')!.address;
  const quoteRequest = {
    walletAddress: user.address,
    sources: [
      { chainId: 1, address: usdc(1), amount: '5000000', symbol: 'USDC', decimals: 6, usdValue: '5' },
      { chainId: 42161, address: usdc(42161), amount: '3000000', symbol: 'USDC', decimals: 6, usdValue: '3' },
    ],
    target: {
      chainId: 8453,
      address: usdc(8453),
      targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
    },
    allowedProviders: ['relay', 'across', 'mayan'],
  };
  const quoteResponse = await ok<{ intentSessionId: string }>(
    'POST',
    '/api/external/intents/quote',
    quoteRequest,
  );
  const prepareResponse = await ok<Prepared>(
    'POST',
    `/api/external/intents/${quoteResponse.intentSessionId}/prepare`,
    { walletContext: { connectorName: 'capture', walletCapabilities: {} } },
  );
  const account = privateKeyToAccount(user.privateKey as Hex);
  const chainResults: { chainId: number; txHashes: Hex[] }[] = [];
  for (const action of prepareResponse.chainActions) {
    const entry = manifest.chains.find((c) => c.chainId === action.chainId)!;
    const chain = defineChain({
      id: entry.chainId,
      name: entry.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [entry.rpcUrl] } },
    });
    const wallet = createWalletClient({ account, chain, transport: http(entry.rpcUrl) });
    const reader = createPublicClient({ chain, transport: http(entry.rpcUrl), pollingInterval: 50 });
    const txHashes: Hex[] = [];
    for (const tx of action.transactions ?? []) {
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data, value: BigInt(tx.value) });
      await reader.waitForTransactionReceipt({ hash });
      txHashes.push(hash);
    }
    chainResults.push({ chainId: action.chainId, txHashes });
  }
  const signature = await account.signTypedData(prepareResponse.walletAuthorization);
  const submittedRequest = { submittedAt: Date.now(), walletAuthorization: { signature }, chainResults };
  const submittedResponse = await ok<unknown>(
    'POST',
    `/api/external/attempts/${prepareResponse.attemptId}/submitted`,
    submittedRequest,
  );
  const statusResponses = await followStatus(
    (path) => ok<{ status: string }>('GET', path),
    prepareResponse.attemptId,
  );
  await waitFor(() => webhooks.length >= 3, 30_000);
  const errorResponses = [
    await api('POST', '/api/external/intents/quote', { ...quoteRequest, slippageBps: 0 }),
    await api('GET', '/api/external/attempts/att_unknown/status'),
    await api('POST', `/api/external/intents/${quoteResponse.intentSessionId}/prepare`, { walletContext: 1 }),
  ].map((res) => ({ status: res.status, body: res.json }));
  receiver.close();

  const captured = {
    ping: await ok<unknown>('GET', '/api/external/ping'),
    quoteRequest,
    quoteResponse,
    prepareResponse,
    submittedRequest,
    submittedResponse,
    statusResponses,
    webhooks,
    errorResponses,
  };
  const file = await formatted(CAPTURED_PATH, JSON.stringify(captured, null, 2));
  writeFileSync(join(REPO_ROOT, file.path), file.content);
  process.stdout.write(
    `${CAPTURED_PATH}: ${statusResponses.length} status snapshots, ${webhooks.length} webhooks\n`,
  );
}

/** Every distinct status until a terminal one (at most two minutes). */
async function followStatus(
  get: (path: string) => Promise<{ status: string }>,
  attemptId: string,
): Promise<unknown[]> {
  const seen: unknown[] = [];
  let last = '';
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const snapshot = await get(`/api/external/attempts/${attemptId}/status`);
    if (snapshot.status !== last) seen.push(snapshot);
    last = snapshot.status;
    if (['settled', 'failed', 'expired'].includes(last)) return seen;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`attempt ${attemptId} still ${last} after two minutes`);
}

async function waitFor(done: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
}

function listen(port: number, into: unknown[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      into.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
