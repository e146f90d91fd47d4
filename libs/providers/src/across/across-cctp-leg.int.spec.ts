import {
  type FakeProviderServer,
  startFakeProviderServer,
} from '../testing/fake-provider-server.test-helper';
import { fixture } from '../testing/fixture.test-helper';
import { AcrossAdapter } from './across.adapter';

const PREFIX = '/api';
const DEPOSIT_TX = '0x5b8e0b0d0a8b7c9d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d';
const CONTEXT = { provider: 'across' as const, originChainId: 1, destinationChainId: 8453 };
const never = () => new AbortController().signal;

/**
 * A batch with a CCTP-routed leg at call 0 and a SpokePool leg at call 1 (providers review N3): the indexer lists
 * the SpokePool deposit at index 0 and the CCTP burn at index 1 (across-protocol/indexer services/deposits.ts
 * getDepositStatusByTxnRef). Each leg must be asked at its own index, over HTTP on loopback.
 */
describe('AcrossAdapter.status: a CCTP leg and a SpokePool leg in one transaction (N3)', () => {
  let server: FakeProviderServer;
  const adapter = () =>
    new AcrossAdapter({
      baseUrl: server.origin + PREFIX,
      apiKey: null,
      integratorId: null,
      timeoutMs: 5000,
      minPollIntervalMs: 10_000,
    });
  const pendingAt = (index: number, depositId: string | null) => ({
    ...fixture(__dirname, 'deposit-status-filled.json'),
    status: 'pending',
    fillTx: null,
    fillTxnRef: null,
    depositId,
    pagination: { currentIndex: index, maxIndex: 1 },
  });
  beforeAll(async () => (server = await startFakeProviderServer()));
  afterEach(() => server.reset());
  afterAll(() => server.close());

  it("the CCTP leg (call 0) is asked at index 1, the indexer's, and takes the answer without a depositId", async () => {
    server.route('GET', `${PREFIX}/deposit/status`, (request) => ({
      status: 200,
      body: request.query.get('index') === '1' ? pendingAt(1, null) : pendingAt(0, '77'),
    }));
    const cctp = await adapter().status(CONTEXT, {
      signal: never(),
      sourceTxHash: DEPOSIT_TX,
      deposit: { index: 0, ref: 'cctp:1' },
    });
    expect(cctp).toMatchObject({ ok: true, progress: { state: 'pending' } });
    expect(server.received.map((r) => Object.fromEntries(r.query))).toEqual([
      { depositTxnRef: DEPOSIT_TX, index: '1' },
    ]);
  });

  it('the SpokePool leg (call 1) finds its own deposit by depositId, never the CCTP answer', async () => {
    server.route('GET', `${PREFIX}/deposit/status`, (request) => ({
      status: 200,
      body:
        request.query.get('index') === '1'
          ? pendingAt(1, null)
          : request.query.get('depositId') === '77' || request.query.get('index') === '0'
            ? pendingAt(0, '77')
            : { error: 'DepositNotFoundException' },
    }));
    await adapter().status(CONTEXT, {
      signal: never(),
      sourceTxHash: DEPOSIT_TX,
      deposit: { index: 1, ref: '77' },
    });
    // Before the fix the CCTP answer at index 1 (no depositId) stood for the SpokePool leg.
    expect(server.received.map((r) => Object.fromEntries(r.query))).toEqual([
      { depositTxnRef: DEPOSIT_TX, index: '1' },
      { originChainId: '1', depositId: '77' },
    ]);
  });
});
