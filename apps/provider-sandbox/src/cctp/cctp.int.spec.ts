import {
  decodeFunctionData,
  encodeFunctionData,
  pad,
  parseAbi,
  parseEventLogs,
  keccak256,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, sign } from 'viem/accounts';
import { BatchExecutorArtifact } from '@svc/testing';
import {
  MessageTransmitterV2Artifact,
  Multicall3Artifact,
  TokenMessengerV2Artifact,
} from '../contracts/artifacts';
import { startSandbox, type RunningSandbox } from '../start-sandbox';
import { quoteDeposit } from '../testing/provider-deposit';
import {
  balanceOf,
  freshAddress,
  httpJson,
  TEST_SANDBOX_OPTIONS,
  tokenAddress,
  userOn,
  waitUntil,
} from '../testing/sandbox-test-kit';

/**
 * circlefin/evm-cctp-contracts src/v2/TokenMessengerV2.sol, BaseTokenMessenger.sol and MessageTransmitterV2.sol: the
 * events as Circle declares them, written out here so a sandbox event that drifted from Circle's layout (another
 * topic hash or argument order) would not decode.
 */
const CIRCLE_V2_EVENTS = parseAbi([
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  'event MessageSent(bytes message)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
]);

/** The window that lets burns made a few transactions apart share one mint, as the finalizer's loop does. */
const BATCH_MINTS_MS = 3000;

let sandbox: RunningSandbox;
let executor: Address;
const contracts = () => sandbox.chains.contracts[0];
const usdc = (chainId: number, owner: Address) =>
  balanceOf(sandbox, chainId, tokenAddress(sandbox, chainId, 'USDC'), owner);
const fee = (amount: bigint) => (amount + 9_999n) / 10_000n;

beforeAll(async () => {
  sandbox = await startSandbox({
    ...TEST_SANDBOX_OPTIONS,
    faults: [{ provider: 'across', cctp: true, batchMintsMs: BATCH_MINTS_MS }],
  });
  const deployer = userOn(sandbox, 5, 1);
  const hash = await deployer.wallet.deployContract({
    abi: BatchExecutorArtifact.abi,
    bytecode: BatchExecutorArtifact.bytecode,
  });
  executor = (await deployer.publicClient.waitForTransactionReceipt({ hash })).contractAddress!;
});
afterAll(() => sandbox?.stop());

function leg(user: number, amount: bigint, token: 'USDC' | 'USDT' = 'USDC') {
  const recipient = freshAddress();
  return quoteDeposit(sandbox, 'across', {
    user: sandbox.chains.accounts.users[user].address,
    recipient,
    fromChainId: 1,
    toChainId: 8453,
    tokenIn: token,
    tokenOut: token,
    amount,
  }).then((deposit) => ({ recipient, amount, deposit }));
}

const status = (tx: Hex, index: number) =>
  httpJson(`${sandbox.url}/across/deposit/status?depositTxnRef=${tx}&index=${index}`);

describe('Across USDC legs routed over CCTP (the `cctp` fault)', () => {
  it('the Swap API answers a TokenMessengerV2 depositForBurn, fast mode, with the CCTP fees and fill time', async () => {
    const depositor = sandbox.chains.accounts.users[0].address;
    const recipient = freshAddress();
    const amount = 10_000_000n;
    const { status: code, body } = await httpJson(
      `${sandbox.url}/across/swap/approval?` +
        new URLSearchParams({
          tradeType: 'exactInput',
          amount: amount.toString(),
          inputToken: tokenAddress(sandbox, 1, 'USDC'),
          outputToken: tokenAddress(sandbox, 8453, 'USDC'),
          originChainId: '1',
          destinationChainId: '8453',
          depositor,
          recipient,
        }).toString(),
    );
    expect(code).toBe(200);
    const maxFee = 1_000n; // 1 bps of 10 USDC, rounded up
    expect(body.swapTx).toMatchObject({ chainId: 1, to: contracts().cctpTokenMessenger, value: '0' });
    expect(body.approvalTxns[0].to).toBe(tokenAddress(sandbox, 1, 'USDC'));
    expect(body.checks.allowance.spender).toBe(contracts().cctpTokenMessenger);
    expect(decodeFunctionData({ abi: TokenMessengerV2Artifact.abi, data: body.swapTx.data })).toEqual({
      functionName: 'depositForBurn',
      args: [
        amount,
        6, // Base's CCTP domain
        pad(recipient, { size: 32 }).toLowerCase(),
        tokenAddress(sandbox, 1, 'USDC'),
        pad(contracts().multicall3, { size: 32 }).toLowerCase(),
        maxFee,
        1000,
      ],
    });
    expect(body).toMatchObject({
      crossSwapType: 'bridgeableToBridgeable',
      expectedOutputAmount: (amount - maxFee).toString(),
      minOutputAmount: (amount - maxFee).toString(),
      expectedFillTime: 20,
      steps: { bridge: { provider: 'cctp', outputAmount: (amount - maxFee).toString() } },
    });
    expect(body.steps.bridge.fees).toEqual({
      pct: ((maxFee * 10n ** 18n) / amount).toString(),
      amount: maxFee.toString(),
      token: expect.objectContaining({ symbol: 'USDC', chainId: 1 }),
    });
  });

  it('burns from two wallets (two in one transaction, beside a SpokePool deposit) are minted in one batch, each exact', async () => {
    const [a1, spoke, a2, b] = await Promise.all([
      leg(4, 25_000_000n),
      leg(4, 5_000_000n, 'USDT'),
      leg(4, 7_250_000n),
      leg(3, 12_345_000n),
    ]);
    // The USDT leg is not CCTP-routable: it stays a SpokePool deposit.
    expect(spoke.deposit.calls.at(-1)!.to).toBe(contracts().acrossSpokePool);
    const txA = await userOn(sandbox, 4, 1).sendBatch(executor, [
      ...a1.deposit.calls,
      ...spoke.deposit.calls,
      a2.deposit.calls.at(-1)!,
    ]);
    const txB = await userOn(sandbox, 3, 1).send(b.deposit.calls);

    // The burns carry Circle's own event layouts: DepositForBurn, then MessageSent with a V2 message whose nonce and
    // finalityThresholdExecuted are empty, as emitted.
    const receiptA = await userOn(sandbox, 4, 1).publicClient.getTransactionReceipt({ hash: txA });
    const burns = parseEventLogs({ abi: CIRCLE_V2_EVENTS, logs: receiptA.logs, eventName: 'DepositForBurn' });
    expect(burns.map((l) => [l.args.amount, l.args.mintRecipient, l.args.destinationDomain])).toEqual([
      [a1.amount, pad(a1.recipient, { size: 32 }).toLowerCase(), 6],
      [a2.amount, pad(a2.recipient, { size: 32 }).toLowerCase(), 6],
    ]);
    const sent = parseEventLogs({ abi: CIRCLE_V2_EVENTS, logs: receiptA.logs, eventName: 'MessageSent' });
    expect(sent).toHaveLength(2);
    expect(sent[0].args.message.slice(2 + 24, 2 + 88)).toBe('0'.repeat(64)); // nonce, bytes 12..44

    // Before the batch goes out: pending, no fill, the empty nonce as the indexer shows an unattested MessageSent.
    // The indexer lists the transaction's SpokePool deposit first, then its CCTP burns (N3).
    // The sandbox indexes the block a moment after its receipt, SpokePool deposits and CCTP burns by separate watchers
    // (full runs on a loaded machine asked too soon, and once saw the deposit and one burn only): wait until all three
    // of the transaction's rows are known, well within the batch window.
    const early = await waitUntil(
      () => status(txA, 1),
      (r) => r.body?.pagination?.maxIndex === 2,
      BATCH_MINTS_MS / 2,
    );
    expect(early.body).toMatchObject({
      status: 'pending',
      fillTx: null,
      destinationChainId: null,
      pagination: { currentIndex: 1, maxIndex: 2 },
    });
    expect((await status(txA, 0)).body).toMatchObject({ depositId: expect.any(Number) });

    const filled = (tx: Hex, index: number) =>
      waitUntil(
        () => status(tx, index),
        (r) => r.body?.status === 'filled',
        15_000,
      );
    const [s1, s2, s3] = [await filled(txA, 1), await filled(txA, 2), await filled(txB, 0)];
    const mintTx = s1.body.fillTx as Hex;
    expect(s2.body.fillTx).toBe(mintTx);
    expect(s3.body.fillTx).toBe(mintTx);
    expect(s1.body).toMatchObject({
      originChainId: 1,
      destinationChainId: 8453,
      depositTxnRef: txA,
      fillTxnRef: mintTx,
      pagination: { currentIndex: 1, maxIndex: 2 },
    });
    expect(s3.body.pagination).toEqual({ currentIndex: 0, maxIndex: 0 });
    // Each burn has its own attested nonce as depositId.
    expect(new Set([s1.body.depositId, s2.body.depositId, s3.body.depositId]).size).toBe(3);

    // One Multicall3.tryAggregate of three receiveMessage calls, from the Across filler.
    const base = userOn(sandbox, 0, 8453).publicClient;
    const mint = await base.getTransaction({ hash: mintTx });
    expect(mint.to).toBe(contracts().multicall3.toLowerCase());
    expect(mint.from).toBe(sandbox.chains.accounts.fillers.across.address.toLowerCase());
    const batch = decodeFunctionData({ abi: Multicall3Artifact.abi, data: mint.input });
    expect(batch.functionName).toBe('tryAggregate');
    expect((batch.args[1] as unknown[]).length).toBe(3);
    const mintReceipt = await base.getTransactionReceipt({ hash: mintTx });
    const received = parseEventLogs({
      abi: CIRCLE_V2_EVENTS,
      logs: mintReceipt.logs,
      eventName: 'MessageReceived',
    });
    expect(received.map((l) => l.args.nonce)).toEqual([
      s1.body.depositId,
      s2.body.depositId,
      s3.body.depositId,
    ]);
    expect(received.every((l) => l.args.finalityThresholdExecuted === 1000)).toBe(true);
    const minted = parseEventLogs({
      abi: CIRCLE_V2_EVENTS,
      logs: mintReceipt.logs,
      eventName: 'MintAndWithdraw',
    });
    expect(minted.map((l) => [l.args.mintRecipient, l.args.amount, l.args.feeCollected])).toEqual([
      [a1.recipient, a1.amount - fee(a1.amount), fee(a1.amount)],
      [a2.recipient, a2.amount - fee(a2.amount), fee(a2.amount)],
      [b.recipient, b.amount - fee(b.amount), fee(b.amount)],
    ]);

    // Each recipient is credited exactly amount − feeExecuted, what the quote promised.
    for (const l of [a1, a2, b]) {
      expect(l.deposit.expectedOutput).toBe(l.amount - fee(l.amount));
      expect(await usdc(8453, l.recipient)).toBe(l.deposit.expectedOutput);
    }
    // The SpokePool deposit of the same transaction is filled on its own, by fillRelay.
    const spokeStatus = await waitUntil(
      () => status(txA, 0),
      (r) => r.body?.status === 'filled',
    );
    expect(spokeStatus.body.fillTx).not.toBe(mintTx);
    expect(await balanceOf(sandbox, 8453, tokenAddress(sandbox, 8453, 'USDT'), spoke.recipient)).toBe(
      spoke.deposit.expectedOutput,
    );
    expect(await status(txA, 3)).toMatchObject({
      status: 400,
      body: {
        error: 'IndexParamOutOfRangeException',
        message: 'Index 3 out of range. Index must be between 0 and 2',
      },
    });

    // A replayed message is refused by the MessageTransmitterV2 (used nonces), even from the allowed caller.
    const replay = (batch.args[1] as { target: Address; callData: Hex }[])[0];
    await expect(
      base.call({ account: contracts().multicall3, to: replay.target, data: replay.callData }),
    ).rejects.toThrow(/Nonce already used/);
    // And the replay sent as the finalizer would send it mints nothing.
    const before = await usdc(8453, a1.recipient);
    const someone = userOn(sandbox, 1, 8453);
    const hash = await someone.wallet.writeContract({
      address: contracts().multicall3,
      abi: Multicall3Artifact.abi,
      functionName: 'tryAggregate',
      args: [false, [replay]],
    });
    const replayReceipt = await base.waitForTransactionReceipt({ hash });
    expect(parseEventLogs({ abi: CIRCLE_V2_EVENTS, logs: replayReceipt.logs })).toEqual([]);
    expect(await usdc(8453, a1.recipient)).toBe(before);

    // The attested message under another key's signature, or from a caller other than its destinationCaller: refused.
    const { args } = decodeFunctionData({ abi: MessageTransmitterV2Artifact.abi, data: replay.callData });
    const [message, attestation] = args as [Hex, Hex];
    const stranger = generatePrivateKey();
    const forged = await sign({ hash: keccak256(message), privateKey: stranger, to: 'hex' });
    const receive = (signature: Hex, from: Address) =>
      base.call({
        account: from,
        to: contracts().cctpMessageTransmitter,
        data: encodeFunctionData({
          abi: MessageTransmitterV2Artifact.abi,
          functionName: 'receiveMessage',
          args: [message, signature],
        }),
      });
    await expect(receive(forged, contracts().multicall3)).rejects.toThrow(/Invalid signature: not attester/);
    await expect(receive(attestation, a1.recipient)).rejects.toThrow(/Invalid caller for message/);
  });

  it('a burn whose mint would revert is left out of the batch (preflight), and the others are minted', async () => {
    // The default window: burns of one transaction are attested together and batched anyway.
    sandbox.setFaults([{ provider: 'across', cctp: true }]);
    try {
      const good = await leg(2, 4_000_000n);
      const burn = good.deposit.calls.at(-1)!;
      const { args } = decodeFunctionData({ abi: TokenMessengerV2Artifact.abi, data: burn.data });
      const strandedRecipient = freshAddress();
      // destinationCaller another address than the finalizer's Multicall3: receiveMessage refuses its caller.
      const stranded = encodeFunctionData({
        abi: TokenMessengerV2Artifact.abi,
        functionName: 'depositForBurn',
        args: [
          args[0] as bigint,
          args[1] as number,
          pad(strandedRecipient, { size: 32 }),
          args[3] as Address,
          pad(freshAddress(), { size: 32 }),
          args[5] as bigint,
          args[6] as number,
        ],
      });
      const tx = await userOn(sandbox, 2, 1).sendBatch(executor, [
        ...good.deposit.calls,
        { to: burn.to, data: stranded, value: 0n },
      ]);
      const done = await waitUntil(
        () => status(tx, 0),
        (r) => r.body?.status === 'filled',
      );
      expect(await usdc(8453, good.recipient)).toBe(good.deposit.expectedOutput);
      const receipt = await userOn(sandbox, 0, 8453).publicClient.getTransactionReceipt({
        hash: done.body.fillTx,
      });
      expect(
        parseEventLogs({ abi: CIRCLE_V2_EVENTS, logs: receipt.logs, eventName: 'MessageReceived' }),
      ).toHaveLength(1);
      // The stranded burn stays pending, as the indexer shows a burn without MessageReceived; nothing was minted.
      expect((await status(tx, 1)).body).toMatchObject({ status: 'pending', fillTx: null });
      expect(await usdc(8453, strandedRecipient)).toBe(0n);
    } finally {
      sandbox.setFaults([{ provider: 'across', cctp: true, batchMintsMs: BATCH_MINTS_MS }]);
    }
  });

  it('without the switch, the same USDC leg is a SpokePool depositV3 (the default)', async () => {
    sandbox.setFaults([]);
    try {
      const { deposit } = await leg(2, 10_000_000n);
      expect(deposit.calls.at(-1)!.to).toBe(contracts().acrossSpokePool);
    } finally {
      sandbox.setFaults([{ provider: 'across', cctp: true, batchMintsMs: BATCH_MINTS_MS }]);
    }
  });
});
