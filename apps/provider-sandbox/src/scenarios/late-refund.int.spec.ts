import { decodeFunctionData } from 'viem';
import { AcrossSpokePoolArtifact } from '../contracts/artifacts';
import {
  ACROSS_FILL_DEADLINE_BUFFER_SECONDS,
  ACROSS_REFUND_AFTER_EXPIRY_SECONDS,
} from '../across/across-refund-timing';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { advanceChainTime } from '../testing/chain-time-travel';
import { quoteDeposit } from '../testing/provider-deposit';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
  withScenario,
} from '../testing/sandbox-test-kit';

/**
 * Across's late refund (issue 24 S14, provider review N2), on chain time: an unfilled deposit reads `pending` until
 * its fillDeadline (the quote timestamp + 2 h), `expired` after it, and is refunded only a bundle and a challenge
 * period (3.5 h) later. Hours of chain time pass by anvil time travel; the wall clock takes seconds.
 */
describe('across late refund on chain time (914)', () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox(TEST_SANDBOX_OPTIONS);
  });
  afterAll(() => sandbox?.stop());

  const travel = (seconds: number) =>
    advanceChainTime(
      sandbox.manifest.chains.map((c) => c.rpcUrl),
      seconds,
    );
  const latestTime = async (chainId: number) =>
    Number((await userOn(sandbox, 0, chainId).publicClient.getBlock()).timestamp);

  it('pending until the fill deadline, expired after it, refunded a bundle and a challenge period later', async () => {
    const user = userOn(sandbox, 1, 1);
    const usdc = tokenAddress(sandbox, 1, 'USDC');
    const amount = withScenario(40_000_000n, 'late-refund');
    const quoted = await quoteDeposit(sandbox, 'across', {
      user: user.address,
      recipient: freshAddress(),
      fromChainId: 1,
      toChainId: 8453,
      tokenIn: 'USDC',
      tokenOut: 'USDC',
      amount,
    });
    // The deposit's own fillDeadline: the quote timestamp + 2 h, as Across's API sets it (api/_fill-deadline.ts).
    const depositCall = quoted.calls.at(-1)!;
    const { args } = decodeFunctionData({ abi: AcrossSpokePoolArtifact.abi, data: depositCall.data });
    const [quoteTimestamp, fillDeadline] = [Number(args[8]), Number(args[9])];
    expect(fillDeadline - quoteTimestamp).toBe(ACROSS_FILL_DEADLINE_BUFFER_SECONDS);

    const before = await balanceOf(sandbox, 1, usdc, user.address);
    const sourceTx = await user.send(quoted.calls);
    const status = () => httpJson(quoted.statusUrl(sourceTx));
    await waitUntil(status, (r) => r.body?.status === 'pending');
    // Well past the fill delay, nothing happens while the chains are before the deadline.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await status()).body).toMatchObject({ status: 'pending', depositRefundTxnRef: null });

    // Two hours later on chain: expired, not refunded.
    await travel(fillDeadline - (await latestTime(8453)) + 1);
    expect((await status()).body).toMatchObject({ status: 'expired', depositRefundTxnRef: null });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await status()).body.status).toBe('expired');
    expect(await balanceOf(sandbox, 1, usdc, user.address)).toBe(before - amount);

    // A bundle and its challenge period later: refunded on the origin chain, the input back to the depositor.
    await travel(ACROSS_REFUND_AFTER_EXPIRY_SECONDS);
    const refunded = await waitUntil(status, (r) => r.body?.status === 'refunded', 10_000);
    expect(refunded.body.depositRefundTxnRef).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(sandbox, 1, usdc, user.address)).toBe(before);
    const refundBlock = await userOn(sandbox, 0, 1).publicClient.getTransactionReceipt({
      hash: refunded.body.depositRefundTxnRef,
    });
    const mined = await userOn(sandbox, 0, 1).publicClient.getBlock({ blockNumber: refundBlock.blockNumber });
    expect(Number(mined.timestamp)).toBeGreaterThanOrEqual(fillDeadline + ACROSS_REFUND_AFTER_EXPIRY_SECONDS);
  }, 60_000);
});
