import {
  type FetchFn,
  loadProvidersConfig,
  type ProviderQuote,
  RELAY_KEY_REQUESTS_PER_MINUTE,
  RelayAdapter,
  RelayRequestBudget,
} from '@svc/providers';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { freshAddress, TEST_SANDBOX_OPTIONS, tokenAddress } from '../testing/sandbox-test-kit';

const LEGS = 30;
const SIMULATED_MS = 150_000;

/**
 * Providers review N16: the real Relay adapter polling many legs in flight against the sandbox, paced the way the
 * tracker paces a leg (the adapter's minPollIntervalMs, or longer when it answers with a wait). Time is simulated (the
 * budget's clock and the pacing), the requests are real HTTP to the sandbox; every one that leaves the adapter is
 * counted, and no sliding minute holds more than Relay's default key limit of 200 non-quote requests
 * (relay-docs references/api/api-keys.mdx).
 */
describe('relay polling budget: many legs in flight stay under the key limit (N16)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
  });
  afterAll(async () => sandbox?.stop());

  it(`${LEGS} legs polled for ${SIMULATED_MS / 1000} s: at most ${RELAY_KEY_REQUESTS_PER_MINUTE} requests in any minute, every leg still polled`, async () => {
    let now = Date.now();
    const sent: { at: number; path: string }[] = [];
    const counting: FetchFn = (input, init) => {
      sent.push({ at: now, path: new URL(String(input instanceof Request ? input.url : input)).pathname });
      return fetch(input, init);
    };
    const relay = new RelayAdapter(
      loadProvidersConfig(sandbox.manifest.env).relay,
      counting,
      new RelayRequestBudget(RELAY_KEY_REQUESTS_PER_MINUTE, () => now),
    );
    expect(relay.tracking.minPollIntervalMs).toBeGreaterThanOrEqual(5000); // relay-kit's pollingInterval ?? 5000

    const quotes: ProviderQuote[] = [];
    for (let i = 0; i < LEGS; i++) {
      const wallet = sandbox.chains.accounts.users[i % sandbox.chains.accounts.users.length].address;
      const result = await relay.quote(
        {
          sliceId: `leg-${i}`,
          wallet,
          recipient: freshAddress(),
          refundTo: wallet,
          source: {
            chainId: 1,
            token: tokenAddress(sandbox, 1, 'USDC'),
            amount: 10_000000n,
            decimals: 6,
            symbol: 'USDC',
          },
          target: { chainId: 8453, token: tokenAddress(sandbox, 8453, 'USDC'), decimals: 6, symbol: 'USDC' },
          slippageBps: 50,
          appFeeBps: 0,
          appFeeRecipient: null,
        },
        { signal: AbortSignal.timeout(5000) },
      );
      if (!result.ok) throw new Error(`relay quote failed: ${JSON.stringify(result.failure)}`);
      quotes.push(result.quote);
    }

    const start = now;
    const nextAt = quotes.map(() => start);
    const polled = quotes.map(() => 0);
    for (let t = start; t < start + SIMULATED_MS; t += 250) {
      now = t;
      for (const [i, q] of quotes.entries()) {
        if (nextAt[i] > t) continue;
        const result = await relay.status(q.trackingContext, {
          signal: AbortSignal.timeout(5000),
          sourceTxHash: null,
        });
        if (result.ok) polled[i]++;
        const wait = result.ok ? 0 : (result.failure.retryAfterMs ?? 0);
        nextAt[i] = t + Math.max(relay.tracking.minPollIntervalMs, wait);
      }
    }

    const statusRequests = sent.filter((r) => !r.path.includes('/quote'));
    // Demand was well over the limit: 30 legs every 5 s is 360 a minute.
    expect(statusRequests.length).toBeGreaterThan(RELAY_KEY_REQUESTS_PER_MINUTE);
    const busiestMinute = Math.max(
      ...statusRequests.map((r) => statusRequests.filter((o) => o.at >= r.at && o.at < r.at + 60_000).length),
    );
    expect(busiestMinute).toBeLessThanOrEqual(RELAY_KEY_REQUESTS_PER_MINUTE);
    // Nobody starves: every leg was answered several times.
    expect(Math.min(...polled)).toBeGreaterThanOrEqual(5);
    process.stdout.write(
      `relay budget: ${statusRequests.length} status requests in ${SIMULATED_MS / 1000} s, busiest minute ${busiestMinute}, per leg ${Math.min(...polled)}-${Math.max(...polled)}\n`,
    );
  }, 60_000);
});
