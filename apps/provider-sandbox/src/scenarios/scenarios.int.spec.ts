import { erc20Abi, formatUnits, getAddress, parseEventLogs, type Address, type Hex } from 'viem';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { quoteDeposit, type ProviderDeposit } from '../testing/provider-deposit';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  withScenario,
  type SandboxScenario,
} from '../testing/sandbox-test-kit';
import { isSubsequence, NOT_INDEXED, statusSequence } from '../testing/status-sequence';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
});
afterAll(() => sandbox?.stop());
afterEach(() => httpJson(`${sandbox.url}/faults`, { method: 'DELETE' }));

const PROVIDERS = ['relay', 'across', 'mayan'] as const;
/** One depositor per provider, so the three flows of a test run side by side without sharing a nonce. */
const USERS: Record<SandboxProvider, number> = { relay: 0, across: 1, mayan: 2 };
const BASE = 40_000_000n;

/** Every status a deposit can pass through, in order; a poll may miss the short-lived ones. */
const FILL_SEQUENCE: Record<SandboxProvider, string[]> = {
  relay: ['waiting', 'pending', 'delayed', 'submitted', 'success'],
  across: [NOT_INDEXED, 'pending', 'filled'],
  mayan: [NOT_INDEXED, 'INPROGRESS', 'COMPLETED'],
};
const REFUND_SEQUENCE: Record<SandboxProvider, string[]> = {
  relay: ['waiting', 'pending', 'failure', 'pending', 'refund'],
  across: [NOT_INDEXED, 'pending', 'refunded'],
  mayan: [NOT_INDEXED, 'INPROGRESS', 'REFUNDED'],
};
const FILLED = { relay: 'success', across: 'filled', mayan: 'COMPLETED' };
const REFUNDED = { relay: 'refund', across: 'refunded', mayan: 'REFUNDED' };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dialect's JSON
type Body = any;
const pickStatus = (provider: SandboxProvider) => (body: Body) =>
  provider === 'mayan' ? (body.clientStatus as string) : (body.status as string);
const fillHash = (provider: SandboxProvider, body: Body): Hex =>
  ({ relay: body.txHashes?.[0], across: body.fillTxnRef, mayan: body.fulfillTxHash })[provider];
const refundHash = (provider: SandboxProvider, body: Body): Hex =>
  ({ relay: body.txHashes?.[0], across: body.depositRefundTxnRef, mayan: body.refundTxHash })[provider];

interface Flow {
  provider: SandboxProvider;
  deposit: ProviderDeposit;
  depositor: Address;
  recipient: Address;
  amount: bigint;
  /** The depositor's source USDC before depositing. */
  before: bigint;
  sourceTx: Hex;
  statusUrl: string;
}

/** Quotes USDC on chain 1 → `tokenOut` on 8453 for a scenario amount and sends the deposit. */
async function deposit(
  provider: SandboxProvider,
  scenario: SandboxScenario,
  options: { tokenOut?: string; userIndex?: number; refundAddress?: Address } = {},
): Promise<Flow> {
  const user = userOn(sandbox, options.userIndex ?? USERS[provider], 1);
  const recipient = freshAddress();
  const amount = withScenario(BASE, scenario);
  const quoted = await quoteDeposit(sandbox, provider, {
    user: user.address,
    recipient,
    fromChainId: 1,
    toChainId: 8453,
    tokenIn: 'USDC',
    tokenOut: options.tokenOut ?? 'USDC',
    amount,
    refundAddress: options.refundAddress,
  });
  const before = await token(1, 'USDC', user.address);
  const sourceTx = await user.send(quoted.calls);
  return {
    provider,
    deposit: quoted,
    depositor: user.address,
    recipient,
    amount,
    before,
    sourceTx,
    statusUrl: quoted.statusUrl(sourceTx),
  };
}

function watch(flow: Flow, until: (status: string) => boolean) {
  return statusSequence(flow.statusUrl, pickStatus(flow.provider), until);
}

const token = (chainId: number, symbol: string, owner: Address) =>
  balanceOf(sandbox, chainId, tokenAddress(sandbox, chainId, symbol), owner);

/** The receipt's status and its ERC-20 transfers: what a transaction actually moved. */
async function moved(chainId: number, hash: Hex) {
  const receipt = await userOn(sandbox, 0, chainId).publicClient.getTransactionReceipt({ hash });
  const transfers = parseEventLogs({ abi: erc20Abi, eventName: 'Transfer', logs: receipt.logs }).map((l) => ({
    token: getAddress(l.address),
    to: l.args.to,
    value: l.args.value,
  }));
  return { status: receipt.status, transfers };
}

/** What each dialect reports as delivered: relay's actual output, across's outputAmount, mayan's toAmount. */
async function reportedAmount(flow: Flow, body: Body): Promise<string> {
  switch (flow.provider) {
    case 'relay': {
      const requestId = new URL(flow.statusUrl).searchParams.get('requestId');
      const record = await httpJson(`${sandbox.url}/relay/requests/v3?id=${requestId}`, {
        headers: { 'x-api-key': 'test' },
      });
      return record.body.requests[0].data.route.actual.destination.outputCurrency.amount;
    }
    case 'across': {
      const record = await httpJson(`${sandbox.url}/across/deposit?depositTxnRef=${flow.sourceTx}`);
      return record.body.deposit.outputAmount;
    }
    case 'mayan':
      return body.toAmount;
  }
}

/** Asserts a refund on the source chain: the reported refund tx paid the input back to the depositor. */
async function expectRefunded(flow: Flow, body: Body) {
  const hash = refundHash(flow.provider, body);
  expect(await moved(1, hash)).toEqual({
    status: 'success',
    transfers: [{ token: tokenAddress(sandbox, 1, 'USDC'), to: flow.depositor, value: flow.amount }],
  });
  expect(await token(1, 'USDC', flow.depositor)).toBe(flow.before);
  expect(await token(8453, 'USDC', flow.recipient)).toBe(0n);
  if (flow.provider === 'mayan') {
    expect(body).toMatchObject({ fulfillTxHash: null, refundAmount: formatUnits(flow.amount, 6) });
  }
  if (flow.provider === 'across') expect(body.fillTxnRef).toBeNull();
}

describe('scenarios chosen by the input amount', () => {
  it('…901 refund: every provider pays the input back on the source chain', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'refund');
        const { statuses, body } = await watch(flow, (s) => s === REFUNDED[provider]);
        expect(isSubsequence(statuses, REFUND_SEQUENCE[provider])).toBe(true);
        if (provider === 'relay') expect(statuses).not.toContain('failure');
        await expectRefunded(flow, body);
      }),
    );
  });

  it('…902 failure then refund: relay reports failure for the hold, then refunds; the others refund', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'failure-then-refund');
        const { statuses, body } = await watch(flow, (s) => s === REFUNDED[provider]);
        expect(isSubsequence(statuses, REFUND_SEQUENCE[provider])).toBe(true);
        if (provider === 'relay') {
          expect(statuses).toContain('failure');
          // Relay's code in failReason (relay-docs changelog.mdx 2026-08-07), free text in details (N9).
          expect(body.failReason).toBe('SOLVER_CAPACITY_EXCEEDED');
          expect(body.details).toEqual(expect.stringContaining('SOLVER_CAPACITY_EXCEEDED'));
        }
        await expectRefunded(flow, body);
      }),
    );
  });

  it('…903 final failure: relay stays at failure and nothing moves back; the others refund', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'final-failure');
        if (provider !== 'relay') {
          const { body } = await watch(flow, (s) => s === REFUNDED[provider]);
          return expectRefunded(flow, body);
        }
        const { statuses } = await watch(flow, (s) => s === 'failure');
        expect(isSubsequence(statuses, ['waiting', 'pending', 'failure'])).toBe(true);
        // Twice the failure hold later, still no refund.
        await new Promise((resolve) => setTimeout(resolve, 2 * TEST_SANDBOX_OPTIONS.failureHoldMs));
        expect((await httpJson(flow.statusUrl)).body).toMatchObject({ status: 'failure', txHashes: [] });
        const requestId = new URL(flow.statusUrl).searchParams.get('requestId');
        const record = await httpJson(`${sandbox.url}/relay/requests/v3?id=${requestId}`, {
          headers: { 'x-api-key': 'test' },
        });
        expect(record.body.requests[0]).toMatchObject({
          status: 'failure',
          data: {
            failReason: 'SOLVER_CAPACITY_EXCEEDED',
            refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND',
            outTxs: [],
          },
        });
        expect(await token(1, 'USDC', flow.depositor)).toBe(flow.before - flow.amount);
        expect(await token(8453, 'USDC', flow.recipient)).toBe(0n);
      }),
    );
  });

  it('…904 cancel: mayan reports CANCELED, first without the refund (N14), then with it; relay and across refund', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'cancel');
        // Mayan: the cancel comes before the refund transaction exists (swap-bridge cancelOrder, then refundOrder).
        const mayanPick = (b: unknown) => {
          const { clientStatus, refundTxHash } = b as { clientStatus: string; refundTxHash: string | null };
          return clientStatus === 'CANCELED' && refundTxHash === null
            ? 'CANCELED (no refund yet)'
            : clientStatus;
        };
        const final = provider === 'mayan' ? 'CANCELED' : REFUNDED[provider];
        const { statuses, body } =
          provider === 'mayan'
            ? await statusSequence(flow.statusUrl, mayanPick, (s) => s === final)
            : await watch(flow, (s) => s === final);
        const sequence =
          provider === 'mayan'
            ? [NOT_INDEXED, 'INPROGRESS', 'CANCELED (no refund yet)', 'CANCELED']
            : REFUND_SEQUENCE[provider];
        expect(isSubsequence(statuses, sequence)).toBe(true);
        if (provider === 'mayan') expect(statuses).toContain('CANCELED (no refund yet)');
        await expectRefunded(flow, body);
      }),
    );
  });

  it('…905 reverted fill: reported filled with a fill transaction that reverted; nothing reaches the recipient', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'reverted-fill');
        const { statuses, body } = await watch(flow, (s) => s === FILLED[provider]);
        expect(isSubsequence(statuses, FILL_SEQUENCE[provider])).toBe(true);
        expect(await moved(8453, fillHash(provider, body))).toEqual({ status: 'reverted', transfers: [] });
        expect(await token(8453, 'USDC', flow.recipient)).toBe(0n);
        const expected = flow.deposit.expectedOutput;
        expect(await reportedAmount(flow, body)).toBe(
          provider === 'mayan' ? formatUnits(expected, 6) : expected.toString(),
        );
      }),
    );
  });

  it('…906 short fill: half the quote minimum is delivered and reported', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'short-fill');
        const { body } = await watch(flow, (s) => s === FILLED[provider]);
        const short = flow.deposit.minimumOutput / 2n;
        expect(short).toBeGreaterThan(0n);
        expect(await moved(8453, fillHash(provider, body))).toEqual({
          status: 'success',
          transfers: [{ token: tokenAddress(sandbox, 8453, 'USDC'), to: flow.recipient, value: short }],
        });
        expect(await token(8453, 'USDC', flow.recipient)).toBe(short);
        expect(await reportedAmount(flow, body)).toBe(
          provider === 'mayan' ? formatUnits(short, 6) : short.toString(),
        );
      }),
    );
  });

  it('…907 zero fill: a successful fill transaction transfers 0 to the recipient', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'zero-fill');
        const { body } = await watch(flow, (s) => s === FILLED[provider]);
        expect(await moved(8453, fillHash(provider, body))).toEqual({
          status: 'success',
          transfers: [{ token: tokenAddress(sandbox, 8453, 'USDC'), to: flow.recipient, value: 0n }],
        });
        expect(await token(8453, 'USDC', flow.recipient)).toBe(0n);
        expect(await reportedAmount(flow, body)).toBe('0');
      }),
    );
  });

  it('…908 wrong-token fill: the right amount of USDT instead of USDC, reported as a normal fill', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'wrong-token-fill');
        const { body } = await watch(flow, (s) => s === FILLED[provider]);
        const expected = flow.deposit.expectedOutput;
        expect(await moved(8453, fillHash(provider, body))).toEqual({
          status: 'success',
          transfers: [{ token: tokenAddress(sandbox, 8453, 'USDT'), to: flow.recipient, value: expected }],
        });
        expect(await token(8453, 'USDC', flow.recipient)).toBe(0n);
        expect(await reportedAmount(flow, body)).toBe(
          provider === 'mayan' ? formatUnits(expected, 6) : expected.toString(),
        );
      }),
    );
  });

  it('…909 destination action failed: across pays the bridged token to the refund address, filled with actionsSucceeded false', async () => {
    const refundAddress = freshAddress();
    const [withRefund, withoutRefund, ...others] = await Promise.all([
      deposit('across', 'destination-action-failed', { tokenOut: 'WETH', refundAddress }),
      deposit('across', 'destination-action-failed', { tokenOut: 'WETH', userIndex: 3 }),
      deposit('relay', 'destination-action-failed'),
      deposit('mayan', 'destination-action-failed'),
    ]);
    const usdc8453 = tokenAddress(sandbox, 8453, 'USDC');
    for (const [flow, paidTo] of [
      [withRefund, refundAddress],
      // getAcrossFallbackRecipient: refundAddress ?? depositor (an EVM origin), never the recipient.
      [withoutRefund, withoutRefund.depositor],
    ] as const) {
      const { statuses, body } = await watch(flow, (s) => s === 'filled');
      expect(isSubsequence(statuses, FILL_SEQUENCE.across)).toBe(true);
      expect(body).toMatchObject({ status: 'filled', actionsSucceeded: false, depositRefundTxnRef: null });
      // The quoted WETH output, valued at $3000, in USDC.
      const bridged = (flow.deposit.expectedOutput * 3000n) / 10n ** 12n;
      // The two deposits arrive together and the relayer fills them in one multicall (S13): this one's transfer is
      // the bridged token to its fallback recipient, and nothing goes to its recipient.
      const fill = await moved(8453, body.fillTxnRef);
      expect(fill.status).toBe('success');
      expect(fill.transfers).toContainEqual({ token: usdc8453, to: paidTo, value: bridged });
      expect(fill.transfers.filter((t) => t.to.toLowerCase() === flow.recipient.toLowerCase())).toEqual([]);
      expect(await token(8453, 'WETH', flow.recipient)).toBe(0n);
      const record = await httpJson(`${sandbox.url}/across/deposit?depositTxnRef=${flow.sourceTx}`);
      expect(record.body.deposit).toMatchObject({
        status: 'filled',
        outputToken: usdc8453,
        outputAmount: bridged.toString(),
        swapOutputToken: tokenAddress(sandbox, 8453, 'WETH'),
        swapOutputTokenAmount: flow.deposit.minimumOutput.toString(),
        fillTxnRef: body.fillTxnRef,
      });
    }
    for (const flow of others) {
      await watch(flow, (s) => s === FILLED[flow.provider]);
      expect(await token(8453, 'USDC', flow.recipient)).toBe(flow.deposit.expectedOutput);
    }
  });

  it('…910 delayed: relay reports delayed for the hold, then fills; the others fill', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'delayed');
        const { statuses } = await watch(flow, (s) => s === FILLED[provider]);
        expect(isSubsequence(statuses, FILL_SEQUENCE[provider])).toBe(true);
        expect(statuses.includes('delayed')).toBe(provider === 'relay');
        expect(await token(8453, 'USDC', flow.recipient)).toBe(flow.deposit.expectedOutput);
      }),
    );
  });

  it('…913 fallback: relay ends at `fallback` with the refund and the refund currency; the others refund', async () => {
    await Promise.all(
      PROVIDERS.map(async (provider) => {
        const flow = await deposit(provider, 'fallback');
        const ended = provider === 'relay' ? 'fallback' : REFUNDED[provider];
        const { body } = await watch(flow, (s) => s === ended);
        await expectRefunded(flow, body);
        if (provider !== 'relay') return;
        expect(body).toMatchObject({ status: 'fallback', failReason: 'SOLVER_CAPACITY_EXCEEDED' });
        const requestId = new URL(flow.statusUrl).searchParams.get('requestId');
        const record = await httpJson(`${sandbox.url}/relay/requests/v3?id=${requestId}`, {
          headers: { 'x-api-key': 'test' },
        });
        // The currency the refund paid (relay-kit types/api.ts refundCurrencyData), read by the service (N10).
        expect(record.body.requests[0]).toMatchObject({
          status: 'fallback',
          data: {
            failReason: 'SOLVER_CAPACITY_EXCEEDED',
            refundCurrencyData: {
              currency: { chainId: 1, address: tokenAddress(sandbox, 1, 'USDC') },
              amount: flow.amount.toString(),
            },
          },
        });
      }),
    );
  });

  it('a scenario amount overrides the refund fault, which still refunds every other amount', async () => {
    sandbox.setFaults([{ provider: 'across', refund: true }]);
    const [short, normal] = await Promise.all([
      deposit('across', 'short-fill'),
      deposit('across', 'normal', { userIndex: 3 }),
    ]);
    await watch(short, (s) => s === 'filled');
    expect(await token(8453, 'USDC', short.recipient)).toBe(short.deposit.minimumOutput / 2n);
    const { body } = await watch(normal, (s) => s === 'refunded');
    await expectRefunded(normal, body);
  });
});
