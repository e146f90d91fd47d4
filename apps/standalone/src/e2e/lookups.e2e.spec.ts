import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChainRegistry } from '@svc/chains';
import { SqliteEventStore } from '@svc/event-store';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import {
  SandboxDriver,
  signedRequest,
  startSandboxProcess,
  type SandboxProcess,
  type TestPartner,
} from '@svc/testing';
import { type Account, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON; the assertions check its shape
type Json = any;

/**
 * The support and reconciliation lookups through the HTTP API of the standalone service (SQLite, provider sandbox on
 * anvil): attempts by wallet / recipient / status / time with pages, the attempt of a source transaction and of a
 * fill, partner isolation, both auth versions, the 400 codes of a bad search, and the fee breakdown on the snapshot.
 */
describe('lookups on the standalone service', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lookups-e2e-'));
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      chains,
      store: SqliteEventStore.open({ file: join(dir, 'events.sqlite'), pollIntervalMs: 20 }),
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100', SERVICE_FEE_BPS: '10' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const driver = (partner: TestPartner) => new SandboxDriver({ port: t.port, partner, sandbox });
  const user = (i: number): Account =>
    privateKeyToAccount(sandbox.manifest.wallets.users[i].privateKey as Hex);
  const search = (body: unknown, partner: TestPartner = PARTNERS.v2) =>
    signedRequest({ port: t.port, partner, method: 'POST', path: '/api/external/attempts/search', body });
  const byTx = (chainId: number | string, txHash: string, partner: TestPartner = PARTNERS.v2) =>
    signedRequest({
      port: t.port,
      partner,
      method: 'GET',
      path: `/api/external/transactions/${chainId}/${txHash}/attempt`,
    });
  async function allPages(body: Record<string, unknown>, partner: TestPartner = PARTNERS.v2) {
    const pages: Json[][] = [];
    let cursor: string | null = null;
    do {
      const res = await search({ ...body, ...(cursor ? { cursor } : {}) }, partner);
      expect(res.status).toBe(200);
      pages.push(res.json.attempts);
      cursor = res.json.nextCursor;
    } while (cursor !== null);
    return pages;
  }

  it('lists every attempt of a wallet across pages, newest first, each found as soon as prepared; never another partner’s', async () => {
    const v2 = driver(PARTNERS.v2);
    const other = driver(PARTNERS.other);
    const [w0, w1] = [user(0), user(1)];
    const recipient = privateKeyToAccount(`0x${'7'.repeat(64)}`).address;
    // Many attempts in flight: prepared at once for two wallets and two partners; each searches for itself at once.
    const made = await Promise.all(
      Array.from({ length: 14 }, async (_, n) => {
        const partner = n % 7 === 6 ? PARTNERS.other : PARTNERS.v2;
        const wallet = n % 2 === 0 ? w0 : w1;
        const { attempt } = await (partner === PARTNERS.v2 ? v2 : other).prepare(
          wallet,
          [[1, 'USDC', String(1_000_000 + n)]],
          { recipient, providers: ['relay'] },
        );
        const own = await search({ walletAddress: wallet.address, limit: 100 }, partner);
        expect(own.json.attempts.map((a: Json) => a.attemptId)).toContain(attempt.attemptId);
        return { partner, wallet: wallet.address, attemptId: attempt.attemptId };
      }),
    );
    const ofV2 = (wallet: string) =>
      made.filter((m) => m.partner === PARTNERS.v2 && m.wallet === wallet).map((m) => m.attemptId);

    const pages = await allPages({ walletAddress: w0.address.toLowerCase(), limit: 2 });
    const listed = pages.flat();
    expect(pages.slice(0, -1).every((p) => p.length === 2)).toBe(true);
    expect(listed.map((a) => a.attemptId).sort()).toEqual(ofV2(w0.address).sort());
    expect(listed.every((a) => a.walletAddress === w0.address && a.status === 'prepared')).toBe(true);
    const order = listed.map((a) => [Date.parse(a.createdAt), a.attemptId]);
    expect(order).toEqual([...order].sort((a, b) => (b[0] !== a[0] ? b[0] - a[0] : b[1] < a[1] ? -1 : 1)));

    // By recipient (both wallets), and narrowed by time; the other partner sees only its own.
    const byRecipient = (await allPages({ recipient, limit: 5 })).flat().map((a) => a.attemptId);
    expect(byRecipient.sort()).toEqual([...ofV2(w0.address), ...ofV2(w1.address)].sort());
    const theirs = (await allPages({ recipient }, PARTNERS.other)).flat().map((a) => a.attemptId);
    expect(theirs.sort()).toEqual(
      made
        .filter((m) => m.partner === PARTNERS.other)
        .map((m) => m.attemptId)
        .sort(),
    );
    const future = await search({ recipient, createdFrom: new Date(Date.now() + 60_000).toISOString() });
    expect([future.status, future.json.attempts, future.json.nextCursor]).toEqual([200, [], null]);
    // The legacy (v1) scheme signs the body too: the same search works for a v1 partner (who has none here).
    const v1 = await search({ recipient }, PARTNERS.v1);
    expect([v1.status, v1.json.attempts]).toEqual([200, []]);
  }, 120_000);

  it('finds the attempt of its source transaction and of its fill, with the fee breakdown on each leg', async () => {
    const v2 = driver(PARTNERS.v2);
    const wallet = user(2);
    const target = v2.token(8453, 'USDC');
    const quote = await v2.api('POST', '/api/external/intents/quote', {
      walletAddress: wallet.address,
      recipient: wallet.address,
      sources: [
        { chainId: 1, address: v2.token(1, 'USDC'), amount: '30000000', symbol: 'USDC', decimals: 6 },
      ],
      target: {
        chainId: 8453,
        address: target,
        targetToken: { address: target, symbol: 'USDC', decimals: 6 },
      },
      allowedProviders: ['relay'],
      feeBps: 20,
    });
    expect(quote.json.quoteStatus).toBe('ready');
    const prepared = await v2.api('POST', `/api/external/intents/${quote.json.intentSessionId}/prepare`, {});
    const attempt = prepared.json;
    const chainResults = await v2.execute(wallet, attempt);
    await v2.submit(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await v2.sign(wallet, attempt) },
    });
    let snapshot: Json;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      snapshot = await v2.status(attempt.attemptId);
      if (snapshot.status === 'settled') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(snapshot.status).toBe('settled');

    const source = chainResults[0].txHashes.at(-1)!;
    const bySource = await byTx(1, source.toUpperCase().replace('0X', '0x'));
    expect([bySource.status, bySource.json.attemptId, bySource.json.matchedTransaction]).toEqual([
      200,
      attempt.attemptId,
      { chainId: 1, txHash: source.toLowerCase(), role: 'source' },
    ]);
    expect(bySource.json.status).toBe('settled');
    expect(bySource.json.otherAttemptIds).toEqual([]);
    const fill = snapshot.settledOutputs[0].txHash as string;
    const byFill = await byTx(8453, fill);
    expect([byFill.status, byFill.json.attemptId, byFill.json.matchedTransaction.role]).toEqual([
      200,
      attempt.attemptId,
      'fill',
    ]);
    // Another partner, another chain, an unknown hash: not found; the search summary knows both hashes.
    expect((await byTx(1, source, PARTNERS.other)).json.code).toBe('transaction_not_found');
    expect((await byTx(10, source)).status).toBe(404);
    expect((await byTx(1, `0x${'ab'.repeat(32)}`)).json.code).toBe('transaction_not_found');
    const summary = (await search({ walletAddress: wallet.address, status: 'settled' })).json.attempts;
    expect(summary.map((a: Json) => a.attemptId)).toEqual([attempt.attemptId]);
    expect(summary[0].transactions).toEqual(
      expect.arrayContaining([
        { chainId: 1, txHash: source.toLowerCase(), role: 'source' },
        { chainId: 8453, txHash: fill.toLowerCase(), role: 'fill' },
      ]),
    );

    // Fees: 10 bps service fee + 20 bps markup asked of relay, in bigint base units of the source token.
    const leg = snapshot.perChainStatus[0].legs[0];
    const { providerFees, serviceFee, partnerMarkup } = leg.fees;
    expect(providerFees.provider).toBe('relay');
    expect([serviceFee.bps, partnerMarkup.bps]).toEqual([10, 20]);
    expect(serviceFee.collectedBps).toBe(30);
    expect([serviceFee.chainId, serviceFee.token.toLowerCase()]).toEqual([
      1,
      v2.token(1, 'USDC').toLowerCase(),
    ]);
    expect([serviceFee.rawAmount, partnerMarkup.rawAmount]).toEqual([
      String((30_000_000n * 10n) / 10_000n),
      String((30_000_000n * 20n) / 10_000n),
    ]);
  }, 120_000);

  it.each([
    ['an unknown field', 'unknown_field', { walletAddress: '0x' + '1'.repeat(40), wallet: 'x' }],
    ['no wallet and no recipient', 'search_filter_required', { status: 'settled' }],
    ['a bad wallet', 'invalid_wallet_address', { walletAddress: '0x1234' }],
    ['the zero recipient', 'invalid_recipient', { recipient: '0x' + '0'.repeat(40) }],
    ['an unknown status', 'invalid_status_filter', { recipient: '0x' + '1'.repeat(40), status: ['done'] }],
    ['an empty status list', 'invalid_status_filter', { recipient: '0x' + '1'.repeat(40), status: [] }],
    [
      'a time without a zone',
      'invalid_time_range',
      { recipient: '0x' + '1'.repeat(40), createdFrom: '2026-01-01T00:00:00' },
    ],
    [
      'an empty time range',
      'invalid_time_range',
      {
        recipient: '0x' + '1'.repeat(40),
        createdFrom: '2026-01-02T00:00:00Z',
        createdTo: '2026-01-01T00:00:00Z',
      },
    ],
    ['limit 0', 'invalid_limit', { recipient: '0x' + '1'.repeat(40), limit: 0 }],
    ['limit 101', 'invalid_limit', { recipient: '0x' + '1'.repeat(40), limit: 101 }],
    ['limit as a string', 'invalid_limit', { recipient: '0x' + '1'.repeat(40), limit: '5' }],
    ['a made-up cursor', 'invalid_cursor', { recipient: '0x' + '1'.repeat(40), cursor: 'abc' }],
    ['a body that is an array', 'invalid_request_body', []],
  ])('a search with %s answers 400 %s', async (_, code, body) => {
    const res = await search(body);
    expect([res.status, res.json.code]).toEqual([400, code]);
  });

  it('refuses a cursor issued for other filters, a bad chain id or hash in the path, and a search without a key', async () => {
    const wallet = user(0).address;
    const first = await search({ walletAddress: wallet, limit: 1 });
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const reused = await search({ walletAddress: wallet, status: 'prepared', cursor: first.json.nextCursor });
    expect([reused.status, reused.json.code]).toEqual([400, 'invalid_cursor']);
    const hash = `0x${'ab'.repeat(32)}`;
    expect([(await byTx(0, hash)).json.code, (await byTx('01', hash)).json.code]).toEqual([
      'invalid_chain_id',
      'invalid_chain_id',
    ]);
    expect((await byTx(1, '0x1234')).json.code).toBe('invalid_transaction_hash');
    const keyless = await signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'POST',
      path: '/api/external/attempts/search',
      body: { walletAddress: wallet },
      idempotencyKey: null,
    });
    expect([keyless.status, keyless.json.code]).toEqual([400, 'idempotency_key_required']);
    // The same key and body read again (nothing is recorded under a search's key).
    const again = () =>
      signedRequest({
        port: t.port,
        partner: PARTNERS.v2,
        method: 'POST',
        path: '/api/external/attempts/search',
        body: { walletAddress: wallet },
        idempotencyKey: 'search-key',
      });
    expect([(await again()).status, (await again()).status]).toEqual([200, 200]);
  });
});
