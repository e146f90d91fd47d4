import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileProcessedEventStore, PartnerClient, signWebhook } from '@intent-service/partner-client';
import { createPartnerBackend, type Order, type PartnerBackend } from './partner-backend';
import { sandboxWallet } from './sandbox-wallet';

const root = join(__dirname, '..', '..', '..');
const dev = JSON.parse(readFileSync(join(root, 'config', 'partners.dev.json'), 'utf8')) as {
  development: boolean;
  partners: { partnerId: string; secret: string; authVersion: 1 | 2; callbackUrl?: string }[];
};
const partner = dev.partners.find((p) => p.partnerId === 'demo-partner')!;

/**
 * The example backend against the real thing: what `npm start` runs (tools/dev/start.ts: the provider sandbox's
 * chains and providers, the standalone service), with the dev partner's callback URL pointed at this backend.
 * One checkout is driven through the backend's routes to a settled webhook it verified.
 */
describe('examples/partner-backend against npm start', () => {
  let dir: string;
  let server: Server;
  let backend: PartnerBackend | undefined;
  let start: ChildProcess;
  let serviceUrl: string;
  let backendUrl: string;
  let client: PartnerClient;
  let manifest: {
    tokens: { chainId: number; symbol: string; address: string }[];
    wallets: { users: { address: string }[] };
  };
  const logs: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'partner-backend-'));
    // The backend's port is held from the start, so the service's callback URL can name it.
    server = createServer((req: IncomingMessage, res: ServerResponse) =>
      backend ? backend(req, res) : res.writeHead(503).end(),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    backendUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const partnersFile = join(dir, 'partners.json');
    writeFileSync(
      partnersFile,
      JSON.stringify({ ...dev, partners: [{ ...partner, callbackUrl: `${backendUrl}/webhooks` }] }),
    );

    start = spawn(process.execPath, [join(root, 'tools', 'run-ts.js'), 'tools/dev/start.ts'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: '0',
        OPS_PORT: '0',
        DATA_DIR: join(dir, 'data'),
        SANDBOX_PORT: '0',
        SANDBOX_MANIFEST_DIR: dir,
        PARTNERS_FILE: partnersFile,
        SETTLEMENT_TICK_MS: '200',
        WEBHOOK_TICK_MS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    serviceUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`npm start did not start:\n${out}`)), 80_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString();
        const match = /intent service\s+(http:\/\/\S+)[\s\S]*Ctrl-C .* stops everything/.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      };
      start.stdout!.on('data', onData);
      start.stderr!.on('data', onData);
      start.once('exit', (code) => reject(new Error(`npm start exited ${code}:\n${out}`)));
    });

    manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as typeof manifest;
    client = new PartnerClient({ baseUrl: serviceUrl, ...partner });
    backend = createPartnerBackend({
      client,
      partnerId: partner.partnerId,
      secret: partner.secret,
      processedEvents: new FileProcessedEventStore(join(dir, 'processed-webhooks.txt')),
      sandboxWallet: sandboxWallet(join(dir, 'manifest.json')).pay,
      log: (line) => logs.push(line),
    });
  }, 90_000);

  afterAll(async () => {
    if (start && start.exitCode === null) {
      const exited = new Promise((resolve) => start.once('exit', resolve));
      start.kill('SIGTERM');
      await exited;
    }
    await new Promise((resolve) => server?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${backendUrl}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const order = async (attemptId: string) =>
    (await call('GET', `/orders/${attemptId}`)).body as unknown as Order;
  async function until<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const value = await read();
      if (done(value)) return value;
      if (Date.now() > deadline)
        throw new Error(`${what}: still ${JSON.stringify(value)}\n${logs.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('checkout → wallet (sandbox) → submitted → a verified settled webhook, the same events over SSE', async () => {
    const usdc = (chainId: number) =>
      manifest.tokens.find((t) => t.chainId === chainId && t.symbol === 'USDC')!.address;
    const wallet = manifest.wallets.users[0].address;
    const checkout = await call('POST', '/checkout', {
      walletAddress: wallet,
      recipient: wallet,
      sources: [{ chainId: 1, address: usdc(1), amount: '5000000', symbol: 'USDC', decimals: 6 }],
      target: {
        chainId: 8453,
        address: usdc(8453),
        targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
      },
      allowedProviders: ['relay'],
    });
    expect(checkout).toMatchObject({ status: 200, body: { status: 'prepared' } });
    const attemptId = checkout.body['attemptId'] as string;

    const paid = await call('POST', `/sandbox/orders/${attemptId}/pay`);
    expect(paid.status).toBe(200);

    const settled = await until(
      'the settled webhook and the live stream',
      () => order(attemptId),
      (o) => o.status === 'settled' && o.live.some((e) => e.event === 'settled'),
    );
    const kinds = settled.webhooks.map((w) => w.event);
    expect(kinds[0]).toBe('wallet_submitted');
    expect(kinds.at(-1)).toBe('settled');
    expect(new Set(settled.webhooks.map((w) => w.eventId)).size).toBe(settled.webhooks.length);
    // The live stream (SSE) carries the same lifecycle events, with the same ids, in the same order.
    expect(settled.live).toEqual(settled.webhooks);
    expect(logs.filter((l) => /^webhook settled .* \(verified\)$/.test(l))).toHaveLength(1);
  }, 120_000);

  it('a redelivery (webhook control plane) reaches the backend and is deduplicated by eventId', async () => {
    const [attemptId, settled] = [...(backend?.orders ?? new Map<string, Order>())].find(
      ([, o]) => o.status === 'settled',
    )!;
    const settledEvent = settled.webhooks.at(-1)!;
    const redelivered = await client.redeliverWebhook(settledEvent.eventId);
    expect(redelivered).toMatchObject({ status: 200, body: { eventId: settledEvent.eventId } });
    // The service records each try: wait for a second delivered try of that event.
    await until(
      'the redelivery',
      async () =>
        (await client.webhookEvents()).body as { events: { eventId: string; deliveries: unknown[] }[] },
      (page) =>
        (page.events.find((e) => e.eventId === settledEvent.eventId)?.deliveries ?? []).filter(
          (d) => (d as { outcome: string }).outcome === 'delivered',
        ).length >= 2,
    );
    expect((await order(attemptId)).webhooks).toEqual(settled.webhooks);
    expect(logs.filter((l) => l.includes(settledEvent.eventId))).toHaveLength(1);
  }, 60_000);

  it('refuses a webhook with a forged signature (401) and changes nothing', async () => {
    const body = JSON.stringify({ eventId: 'evt_forged', event: 'settled', attemptId: 'att_x' });
    const ts = String(Date.now());
    const res = await fetch(`${backendUrl}/webhooks`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-partner-id': partner.partnerId,
        'x-timestamp': ts,
        'x-service-event-id': 'evt_forged',
        'x-signature': signWebhook('not-the-partner-secret', ts, body),
      },
      body,
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'signature_invalid' });
    expect(logs.some((l) => l.includes('evt_forged'))).toBe(false);
  });
});
