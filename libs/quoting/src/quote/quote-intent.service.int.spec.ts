import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type QuoteRequest, type QuoteResponse } from '@svc/contract';
import { type IntentQuotedData } from '@svc/domain';
import { SqliteEventStore } from '@svc/event-store';
import { type FeatureReply } from '@svc/messaging';
import { PartnerDirectory } from '@svc/platform';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import { withAppendBarrier } from '@svc/testing';
import { type QuoteIntent } from './quote-intent.command';
import { QuoteIntentService } from './quote-intent.service';

const T0 = 1_700_000_000_000;
const PARTNER = 'partner-1';
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDC_BASE = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';

const body: QuoteRequest = {
  walletAddress: WALLET,
  recipient: WALLET,
  sources: [{ chainId: 1, address: USDC, amount: '1000000', decimals: 6 }],
  target: {
    id: 't0',
    chainId: 8453,
    address: USDC_BASE,
    allocationPercent: 100,
    targetToken: { address: USDC_BASE, decimals: 6 },
  },
  slippageBps: 50,
  allowPartial: false,
};

const quoteRequest = (key: string, now: number): QuoteIntent => ({
  partnerId: PARTNER,
  idempotencyKey: key,
  body,
  now,
  replayOf: null,
});

const bodyOf = (reply: FeatureReply) => {
  if (!reply.ok) throw new Error(`expected a quote, got ${reply.code}: ${reply.message}`);
  return reply.body as Omit<QuoteResponse, 'apiVersion'>;
};

describe('QuoteIntentService on SQLite', () => {
  let dir: string;
  let sqlite: SqliteEventStore;
  // Providers at a loopback port nobody listens on: every quote answers at once, unavailable.
  const adapters = createProviderAdapters(
    loadProvidersConfig({
      RELAY_BASE_URL: 'http://127.0.0.1:9/relay',
      ACROSS_BASE_URL: 'http://127.0.0.1:9/across',
      MAYAN_PRICE_URL: 'http://127.0.0.1:9/mayan-price',
      MAYAN_EXPLORER_URL: 'http://127.0.0.1:9/mayan-explorer',
    }),
  );
  const partners = new PartnerDirectory([
    {
      partnerId: PARTNER,
      secret: 'secret-0123456789abcdef',
      authVersion: 2,
      callbackUrl: null,
      maxFeeBps: 300,
      allowedProviders: ['relay', 'across', 'mayan'],
      rateLimitPerMinute: 600,
      enabled: true,
    },
  ]);
  const options = {
    quoteTtlSeconds: 60,
    minimumProviderQuoteSeconds: 60,
    defaultMaxWaitMs: 2_000,
    providerConcurrency: 64,
    serviceFeeBps: 0,
    serviceFeeRecipient: null,
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'quote-'));
    sqlite = SqliteEventStore.open({ file: join(dir, 'events.sqlite') });
  });
  afterEach(async () => {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('two overlapping runs of one quote (same key) both answer the stored session', async () => {
    // The second run is the same request run again a second later (the gateway's lease on the key ran out while
    // the first still ran): it routes again, and both append only after both have routed.
    const service = new QuoteIntentService(
      withAppendBarrier(sqlite, 'intent-', 2),
      adapters,
      partners,
      options,
    );
    const replies = await Promise.all([
      service.quote(quoteRequest('key-1', T0)),
      service.quote(quoteRequest('key-1', T0 + 1_000)),
    ]);
    const [first, second] = replies.map(bodyOf);
    const events = await sqlite.readStream(`intent-${first.intentSessionId}`);
    expect(events.map((e) => e.type)).toEqual(['IntentQuoted']);
    const stored = events[0].data as unknown as IntentQuotedData;
    expect(first).toEqual(stored.response);
    expect(second).toEqual(stored.response);
    expect(second.expiresAt).toBe(new Date(T0 + 60_000).toISOString());
  });
});
