import { type PreparedForWallet, type SandboxDriver } from '@svc/testing';
import { type Account } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

/** The partner's markup in every flow: what the fee report owes back. */
export const FLOW_MARKUP_BPS = 20;

type Source = [chainId: number, symbol: string, rawAmount: string];

/** The attempts of one run, by the outcome each was driven to. */
export interface AuditedAttempts {
  settled: string;
  refunded: string;
  /** The deposit reverted on the source chain. */
  failed: string;
  expired: string;
  /** Two legs: one settled, one refunded. */
  partial: string;
}

/**
 * Drives five attempts on the sandbox through the public API, each with its own funded sandbox user, and waits for
 * every one to end: settled (relay), refunded (relay, the sandbox's `…901` refund amount), failed (across deposit sent
 * without its approval, so it reverts), expired (across to WETH; nothing is ever sent: its evidence window is the
 * service's shortest, EVIDENCE_WINDOW_SECONDS=60, which is also the signable window plus execution time, the floor
 * under every evidence deadline) and partially settled (relay from two chains, one leg refunded).
 */
export async function runAuditedFlows(driver: SandboxDriver, users: Account[]): Promise<AuditedAttempts> {
  const [settled, refunded, failed, expired, partial] = await Promise.all([
    executed(driver, users[0], [[1, 'USDC', '5000000']], ['relay']),
    executed(driver, users[1], [[1, 'USDC', '6000901']], ['relay']),
    reverted(driver, users[2]),
    prepared(driver, users[3], [[1, 'USDC', '4000000']], ['across'], [8453, 'WETH']),
    executed(
      driver,
      users[4],
      [
        [1, 'USDC', '7000000'],
        [42161, 'USDC', '3000901'],
      ],
      ['relay'],
    ),
  ]);
  const ids = {
    settled: settled.attemptId,
    refunded: refunded.attemptId,
    failed: failed.attemptId,
    expired: expired.attemptId,
    partial: partial.attemptId,
  };
  await Promise.all(Object.values(ids).map((id) => untilTerminal(driver, id, 85_000)));
  return ids;
}

/** The attempts of the batched flow: three legs filled in one transaction, to one recipient. */
export interface BatchedAttempts {
  /** Two legs (from chains 1 and 42161). */
  twoLegs: string;
  oneLeg: string;
  recipient: string;
}

/**
 * Batched fills (issue 24 item 1, sandbox S13): the sandbox's Across filler puts every fill due within its window into
 * one SpokePool.multicall, as Across's relayer does. Two attempts to one recipient, three legs in all (users 5 and 0:
 * the other flows have ended), each settled with its own deposit's share of that one transaction.
 */
export async function runBatchedFlow(
  driver: SandboxDriver,
  sandbox: { setFaults(faults: Record<string, unknown>[]): Promise<void> },
  users: Account[],
): Promise<BatchedAttempts> {
  await sandbox.setFaults([{ provider: 'across', batchFillsMs: 6000 }]);
  try {
    const recipient = privateKeyToAccount(generatePrivateKey()).address;
    const across = ['across'];
    const [twoLegs, oneLeg] = await Promise.all([
      prepared(
        driver,
        users[5],
        [
          [1, 'USDC', '30000000'],
          [42161, 'USDC', '20000000'],
        ],
        across,
        undefined,
        recipient,
      ),
      prepared(driver, users[0], [[1, 'USDC', '15000000']], across, undefined, recipient),
    ]);
    await Promise.all([submitted(driver, users[5], twoLegs), submitted(driver, users[0], oneLeg)]);
    const ids = { twoLegs: twoLegs.attemptId, oneLeg: oneLeg.attemptId };
    await Promise.all(Object.values(ids).map((id) => untilTerminal(driver, id, 60_000)));
    return { ...ids, recipient };
  } finally {
    await sandbox.setFaults([]);
  }
}

async function prepared(
  driver: SandboxDriver,
  user: Account,
  sources: Source[],
  providers: string[],
  target: [number, string] = [8453, 'USDC'],
  recipient: string = privateKeyToAccount(generatePrivateKey()).address,
): Promise<PreparedForWallet> {
  const [chainId, symbol] = target;
  const token = driver.token(chainId, symbol);
  const quote = await driver.api('POST', '/api/external/intents/quote', {
    walletAddress: user.address,
    recipient,
    sources: sources.map(([sourceChain, sourceSymbol, amount]) => ({
      chainId: sourceChain,
      address: driver.token(sourceChain, sourceSymbol),
      amount,
      symbol: sourceSymbol,
      decimals: 6,
    })),
    target: {
      chainId,
      address: token,
      targetToken: { address: token, symbol, decimals: symbol === 'WETH' ? 18 : 6 },
    },
    allowedProviders: providers,
    feeBps: FLOW_MARKUP_BPS,
  });
  const session = quote.json as { quoteStatus?: string; intentSessionId: string };
  if (quote.status !== 200 || session.quoteStatus !== 'ready')
    throw new Error(`quote: ${quote.status} ${quote.text}`);
  const attempt = await driver.api('POST', `/api/external/intents/${session.intentSessionId}/prepare`, {});
  if (attempt.status !== 200) throw new Error(`prepare: ${attempt.status} ${attempt.text}`);
  return attempt.json as PreparedForWallet;
}

async function submitted(driver: SandboxDriver, user: Account, attempt: PreparedForWallet): Promise<void> {
  const chainResults = await driver.execute(user, attempt);
  await driver.submit(attempt.attemptId, {
    chainResults,
    walletAuthorization: { signature: await driver.sign(user, attempt) },
  });
}

async function executed(
  driver: SandboxDriver,
  user: Account,
  sources: Source[],
  providers: string[],
): Promise<PreparedForWallet> {
  const attempt = await prepared(driver, user, sources, providers);
  await submitted(driver, user, attempt);
  return attempt;
}

/** The deposit alone, without the approval before it: it reverts, and the attempt fails with source_reverted. */
async function reverted(driver: SandboxDriver, user: Account): Promise<PreparedForWallet> {
  const attempt = await prepared(driver, user, [[1, 'USDC', '3000000']], ['across']);
  const transactions = attempt.chainActions[0].transactions ?? [];
  if (transactions.length < 2) throw new Error('expected an approval before the deposit');
  const deposit = transactions.at(-1)!;
  const hash = await driver
    .wallet(user, 1)
    .sendTransaction({ to: deposit.to, data: deposit.data, value: BigInt(deposit.value), gas: 500_000n });
  await driver.reader(1).waitForTransactionReceipt({ hash });
  await driver.submit(attempt.attemptId, {
    chainResults: [{ chainId: 1, txHashes: [hash] }],
    walletAuthorization: { signature: await driver.sign(user, attempt) },
  });
  return attempt;
}

async function untilTerminal(driver: SandboxDriver, attemptId: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = (await driver.status(attemptId)) as { status: string };
    if (['settled', 'failed', 'expired'].includes(status)) return;
    if (Date.now() > deadline) throw new Error(`attempt ${attemptId} is still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
