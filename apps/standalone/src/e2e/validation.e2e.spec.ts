import { IdempotencyLedger } from '@svc/gateway';
import { signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * Every validation rule and code of the quote and submitted bodies, through the real app: a rejected
 * body answers 400 with its code and stores nothing; an accepted one passes validation and reaches its feature
 * (quote answers; submitted answers for the attempt, here unknown: 404). Prepare's body codes are in prepare.e2e.spec.ts. The exhaustive boundary tables live in libs/contract; this proves the wiring.
 */
type Json = Record<string, unknown>;
const WALLET = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const TOKEN = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const CHECKSUMMED = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const TARGET = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const ZERO = '0x0000000000000000000000000000000000000000';
const source = (o: Json = {}) => ({ chainId: 1, address: TOKEN, amount: '1000000', decimals: 6, ...o });
const target = (o: Json = {}, token: Json = {}) => ({
  chainId: 8453,
  address: TARGET,
  targetToken: { address: TARGET, decimals: 6, ...token },
  ...o,
});
const quote = (o: Json = {}) => ({ walletAddress: WALLET, sources: [source()], target: target(), ...o });
const multi = (o: Json = {}) => {
  const { target: _t, ...rest } = quote({
    sources: [source({ usdValue: '10' }), source({ chainId: 10, usdValue: '5' })],
    targets: [target({ allocationPercent: 60 }), target({ chainId: 42161, allocationPercent: 40 })],
    ...o,
  });
  return rest;
};
const elevenTargets = () =>
  multi({ targets: many(11, (i) => target({ allocationPercent: i < 10 ? 9 : 10 })) });
const hash = (c: string) => `0x${c.repeat(64)}`;
const evidence = (o: Json = {}) => ({ chainResults: [{ chainId: 1, txHashes: [hash('a')] }], ...o });
const many = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i));

const QUOTE = '/api/external/intents/quote';
const SUBMITTED = '/api/external/attempts/at_1/submitted';

/** A quote body with `extra: { a: { a: … } }`, `depth` levels, as raw JSON text (JSON.stringify would overflow). */
function deeplyNestedQuote(depth: number): string {
  const valid = JSON.stringify(quote());
  return `${valid.slice(0, -1)},"extra":${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}}`;
}

const rejected: [string, string, unknown, string][] = [
  // quote
  ['quote: body is an array', QUOTE, [], 'invalid_request_body'],
  // Review L2: a body nested 30 000 deep (about 200 KiB, under the body limit) is refused before anything is bound or stored.
  ['quote: body nested 30 000 deep', QUOTE, deeplyNestedQuote(30_000), 'invalid_request_body'],
  ['quote: 11 targets (review M1)', QUOTE, elevenTargets(), 'invalid_target'],
  ['quote: misspelt field', QUOTE, quote({ slipageBps: 10 }), 'unknown_field'],
  ['quote: walletAddress missing', QUOTE, quote({ walletAddress: undefined }), 'invalid_wallet_address'],
  ['quote: walletAddress not hex', QUOTE, quote({ walletAddress: '0xnothex' }), 'invalid_wallet_address'],
  [
    'quote: walletAddress bad checksum',
    QUOTE,
    quote({ walletAddress: CHECKSUMMED.replace('A', 'a') }),
    'invalid_wallet_address',
  ],
  ['quote: recipient not an address', QUOTE, quote({ recipient: '0x1234' }), 'invalid_recipient'],
  [
    'quote: walletAddress is the zero address',
    QUOTE,
    quote({ walletAddress: ZERO }),
    'invalid_wallet_address',
  ],
  ['quote: recipient is the zero address', QUOTE, quote({ recipient: ZERO }), 'invalid_recipient'],
  ['quote: no sources', QUOTE, quote({ sources: [] }), 'invalid_sources'],
  [
    'quote: 51 sources',
    QUOTE,
    quote({ sources: many(51, (i) => source({ chainId: i + 1 })) }),
    'invalid_sources',
  ],
  [
    'quote: duplicate source (case-insensitive)',
    QUOTE,
    quote({ sources: [source(), source({ address: CHECKSUMMED })] }),
    'duplicate_source',
  ],
  ['quote: chainId 0', QUOTE, quote({ sources: [source({ chainId: 0 })] }), 'invalid_chain_id'],
  ['quote: chainId as string', QUOTE, quote({ sources: [source({ chainId: '1' })] }), 'invalid_chain_id'],
  [
    'quote: source token address',
    QUOTE,
    quote({ sources: [source({ address: 'usdc' })] }),
    'invalid_token_address',
  ],
  ['quote: amount zero', QUOTE, quote({ sources: [source({ amount: '0' })] }), 'invalid_amount'],
  ['quote: amount with sign', QUOTE, quote({ sources: [source({ amount: '+5' })] }), 'invalid_amount'],
  ['quote: amount with decimals', QUOTE, quote({ sources: [source({ amount: '1.5' })] }), 'invalid_amount'],
  ['quote: amount as number', QUOTE, quote({ sources: [source({ amount: 5 })] }), 'invalid_amount'],
  [
    'quote: amount 2^256',
    QUOTE,
    quote({ sources: [source({ amount: (2n ** 256n).toString() })] }),
    'invalid_amount',
  ],
  ['quote: decimals 256', QUOTE, quote({ sources: [source({ decimals: 256 })] }), 'invalid_decimals'],
  ['quote: symbol empty', QUOTE, quote({ sources: [source({ symbol: '' })] }), 'invalid_symbol'],
  [
    'quote: usdValue not decimal',
    QUOTE,
    quote({ sources: [source({ usdValue: '1e3' })] }),
    'invalid_usd_value',
  ],
  ['quote: neither target nor targets', QUOTE, quote({ target: undefined }), 'target_required'],
  [
    'quote: both target and targets',
    QUOTE,
    quote({ targets: [target({ allocationPercent: 100 })] }),
    'target_conflict',
  ],
  ['quote: target not an object', QUOTE, quote({ target: 'base-usdc' }), 'invalid_target'],
  [
    'quote: target address differs from token',
    QUOTE,
    quote({ target: target({}, { address: TOKEN }) }),
    'target_token_mismatch',
  ],
  [
    'quote: target token decimals',
    QUOTE,
    quote({ target: target({}, { decimals: -1 }) }),
    'invalid_decimals',
  ],
  [
    'quote: single target at 50%',
    QUOTE,
    quote({ target: target({ allocationPercent: 50 }) }),
    'invalid_allocation_percent',
  ],
  [
    'quote: multi without usdValue',
    QUOTE,
    multi({ sources: [source(), source({ chainId: 10, usdValue: '5' })] }),
    'usd_value_required',
  ],
  [
    'quote: multi shares sum to 90',
    QUOTE,
    multi({
      targets: [target({ allocationPercent: 50 }), target({ chainId: 42161, allocationPercent: 40 })],
    }),
    'invalid_allocation_percent',
  ],
  ['quote: slippageBps 0', QUOTE, quote({ slippageBps: 0 }), 'invalid_slippage_bps'],
  ['quote: slippageBps 10001', QUOTE, quote({ slippageBps: 10001 }), 'invalid_slippage_bps'],
  ['quote: slippageBps as string', QUOTE, quote({ slippageBps: '50' }), 'invalid_slippage_bps'],
  ['quote: maxWaitMs 999', QUOTE, quote({ maxWaitMs: 999 }), 'invalid_max_wait_ms'],
  ['quote: maxWaitMs 18001', QUOTE, quote({ maxWaitMs: 18001 }), 'invalid_max_wait_ms'],
  ['quote: feeBps numeric string', QUOTE, quote({ feeBps: '10' }), 'invalid_fee_bps'],
  ['quote: feeBps fraction', QUOTE, quote({ feeBps: 1.5 }), 'invalid_fee_bps'],
  ['quote: feeBps negative', QUOTE, quote({ feeBps: -1 }), 'invalid_fee_bps'],
  ['quote: feeBps above partner max 300', QUOTE, quote({ feeBps: 301 }), 'invalid_fee_bps'],
  ['quote: allowPartial not boolean', QUOTE, quote({ allowPartial: 'yes' }), 'invalid_allow_partial'],
  [
    'quote: excludeUneconomicSources not boolean',
    QUOTE,
    quote({ excludeUneconomicSources: 'true' }),
    'invalid_exclude_uneconomic_sources',
  ],
  [
    'quote: uneconomicThresholdBps below 100',
    QUOTE,
    quote({ uneconomicThresholdBps: 99 }),
    'invalid_uneconomic_threshold_bps',
  ],
  [
    'quote: uneconomicThresholdBps above 10000',
    QUOTE,
    quote({ uneconomicThresholdBps: 10_001 }),
    'invalid_uneconomic_threshold_bps',
  ],
  ['quote: allowedProviders "all"', QUOTE, quote({ allowedProviders: ['all'] }), 'invalid_allowed_providers'],
  [
    'quote: allowedProviders not an array',
    QUOTE,
    quote({ allowedProviders: 'relay' }),
    'invalid_allowed_providers',
  ],
  [
    'quote: callbackUrl not http(s)',
    QUOTE,
    quote({ callbackUrl: 'ftp://partner.example/hooks' }),
    'invalid_callback_url',
  ],
  [
    'quote: callbackUrl differs from configured',
    QUOTE,
    quote({ callbackUrl: 'https://partner.example/other' }),
    'invalid_callback_url',
  ],
  // prepare: its body codes answer only for a ready session (resource checks come first): see prepare.e2e.spec.ts
  // submitted
  ['submitted: body is an array', SUBMITTED, [], 'invalid_request_body'],
  ['submitted: chainResults missing', SUBMITTED, {}, 'invalid_chain_results'],
  [
    'submitted: 17 chainResults',
    SUBMITTED,
    evidence({ chainResults: many(17, (i) => ({ chainId: i + 1, txHashes: [hash('a')] })) }),
    'invalid_chain_results',
  ],
  [
    'submitted: duplicate chainId',
    SUBMITTED,
    evidence({
      chainResults: [
        { chainId: 1, txHashes: [hash('a')] },
        { chainId: 1, bundleId: 'b' },
      ],
    }),
    'invalid_chain_results',
  ],
  [
    'submitted: neither bundle nor hash',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: 1 }] }),
    'invalid_chain_results',
  ],
  [
    'submitted: chainId negative',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: -1, bundleId: 'b' }] }),
    'invalid_chain_id',
  ],
  [
    'submitted: empty bundleId',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: 1, bundleId: '' }] }),
    'invalid_bundle_id',
  ],
  [
    'submitted: 256-char bundleId',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: 1, bundleId: 'b'.repeat(256) }] }),
    'invalid_bundle_id',
  ],
  [
    'submitted: 65 hashes',
    SUBMITTED,
    evidence({
      chainResults: [{ chainId: 1, txHashes: many(65, (i) => `0x${i.toString(16).padStart(64, '0')}`) }],
    }),
    'invalid_tx_hashes',
  ],
  [
    'submitted: short hash',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: 1, txHashes: ['0xabc'] }] }),
    'invalid_tx_hashes',
  ],
  [
    'submitted: 129-hex signature',
    SUBMITTED,
    evidence({ walletAuthorization: { signature: `0x${'1'.repeat(129)}` } }),
    'invalid_wallet_authorization',
  ],
  ['submitted: submittedAt negative', SUBMITTED, evidence({ submittedAt: -1 }), 'invalid_submitted_at'],
  [
    'submitted: quoteResults not an array',
    SUBMITTED,
    evidence({ chainResults: [{ chainId: 1, bundleId: 'b', quoteResults: 'x' }] }),
    'invalid_quote_results',
  ],
];

const accepted: [string, string, unknown][] = [
  ['quote: minimal single target', QUOTE, quote()],
  [
    'quote: amount 2^256-1, decimals 0 and 255',
    QUOTE,
    quote({
      sources: [
        source({ amount: (2n ** 256n - 1n).toString(), decimals: 0 }),
        source({ chainId: 2, decimals: 255 }),
      ],
    }),
  ],
  ['quote: 50 sources', QUOTE, quote({ sources: many(50, (i) => source({ chainId: i + 1 })) })],
  [
    'quote: checksummed address',
    QUOTE,
    quote({ walletAddress: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' }),
  ],
  ['quote: multi target 60/40', QUOTE, multi()],
  [
    'quote: slippage 1, fee at partner max, maxWait 18000',
    QUOTE,
    quote({ slippageBps: 1, feeBps: 300, maxWaitMs: 18000 }),
  ],
  [
    'quote: slippage 10000, fee 0, maxWait 1000',
    QUOTE,
    quote({ slippageBps: 10000, feeBps: 0, maxWaitMs: 1000 }),
  ],
  ['quote: allowedProviders [] and excluded names', QUOTE, quote({ allowedProviders: ['symbiosis', 'fly'] })],
  [
    'submitted: 16 chains, 64 hashes, 255-char bundle id, signature',
    SUBMITTED,
    evidence({
      walletAuthorization: { signature: `0x${'1'.repeat(130)}` },
      submittedAt: 1763720000000,
      chainResults: many(16, (i) =>
        i === 0
          ? {
              chainId: 1,
              bundleId: 'b'.repeat(255),
              txHashes: many(64, (j) => `0x${j.toString(16).padStart(64, '0')}`),
            }
          : { chainId: i + 1, bundleId: `bundle-${i}` },
      ),
    }),
  ],
];

describe('request validation over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const post = (path: string, body: unknown, idempotencyKey: string) =>
    signedRequest({ port: t.port, partner: PARTNERS.v2, method: 'POST', path, body, idempotencyKey });

  it.each(rejected)('%s → 400 %s', async (name, path, body, code) => {
    const key = `reject ${name}`;
    const res = await post(path, body, key);
    expect([res.status, res.json.code]).toEqual([400, code]);
    expect(res.json.details[0]).toEqual(
      expect.objectContaining({ code, field: expect.any(String), message: expect.any(String) }),
    );
    expect(await t.store.readStream(IdempotencyLedger.streamId(PARTNERS.v2.partnerId, key))).toEqual([]);
  });

  it.each(accepted)('%s passes validation and reaches its feature', async (name, path, body) => {
    const res = await post(path, body, `accept ${name}`);
    if (path === QUOTE) {
      // Quoting answers (no provider is reachable in this test, so nothing is covered).
      expect([res.status, res.json.quoteStatus]).toEqual([200, 'unavailable']);
    } else {
      // Validation passed: the settlement feature answered for the (unknown) attempt.
      expect([res.status, res.json.code]).toEqual([404, 'attempt_not_found']);
    }
  });
});
