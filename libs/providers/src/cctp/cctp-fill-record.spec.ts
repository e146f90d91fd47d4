import {
  type CctpBurnCall,
  cctpBurnV1Logs,
  cctpBurnV2Logs,
  cctpReceiveV1Logs,
  cctpReceiveV2Logs,
  ETHEREUM_TO_BASE_CCTP_ROUTE,
  transferLog,
  withLogIndexes,
} from '@svc/testing';
import { type Address, type Hex, pad, toHex } from 'viem';
import { type FillRecordQuery } from '../fill-record';
import { cctpSentBurns } from './cctp-burn';
import { CCTP_TOPICS } from './cctp-events';
import { cctpFillRecord, cctpReceipts } from './cctp-fill-record';

const ROUTE = ETHEREUM_TO_BASE_CCTP_ROUTE;
const WALLET: Address = '0x00000000000000000000000000000000000000a1';
const STRANGER: Address = '0x00000000000000000000000000000000000000b2';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const FINALIZER: Address = '0x00000000000000000000000000000000000000f1';
const LOOKALIKE: Address = '0x000000000000000000000000000000000000dead';
const nonce = (n: number): Hex => pad(toHex(n), { size: 32 });

const call = (amount: bigint, over: Partial<CctpBurnCall> = {}): CctpBurnCall => ({
  depositor: WALLET,
  mintRecipient: RECIPIENT,
  amount,
  maxFee: 100n,
  destinationCaller: FINALIZER,
  ...over,
});

const query = (logs: FillRecordQuery['logs'], emitters?: Address[]): FillRecordQuery => ({
  chainId: 8453,
  logs,
  tx: { to: FINALIZER, input: '0x', value: 0n },
  deposit: null,
  ...(emitters ? { emitters } : {}),
});

describe("CCTP's event signatures", () => {
  it('are the topic0 values of mainnet CCTP logs, as independent decoders of those logs record them', () => {
    // Recorded in third-party decoders of mainnet logs (found with the code search: Hop's CCTP message watcher,
    // Dune/Flipside models, bridge monitors); a signature copied wrong from the contracts would differ here.
    expect(CCTP_TOPICS).toEqual({
      depositForBurnV2: '0x0c8c1cbdc5190613ebd485511d4e2812cfa45eecb79d845893331fedad5130a5',
      depositForBurnV1: '0x2fa9ca894982930190727e75500a97d8dc500233a5065e0f3126c48fbe0343c0',
      messageSent: '0x8c5261668696ce22758910d05bab8f186d6eb247ceac2af2e82c7dc17669b036',
      messageReceivedV1: '0x58200b4c34ae05ee816d710053fff3fb75af4395915d3d2a771b24aa10e3cc5d',
      messageReceivedV2: '0xff48c13eda96b1cceacc6b9edeedc9e9db9d6226afbc30146b720c19d3addb1c',
      mintAndWithdrawV1: '0x1b2a7ff080b8cb6ff436ce0372e399692bbfb6d4ae5766fd8d58a7b8cc6142e6',
      mintAndWithdrawV2: '0x50c55e915134d457debfa58eb6f4342956f8b0616d51a89a3659360178e1ab63',
    });
  });
});

describe('cctpSentBurns: the message each burn of a source transaction sent', () => {
  it("reads a V2 burn's message: source domain, the source TokenMessenger, its body, no nonce yet", () => {
    const [burn] = cctpSentBurns(cctpBurnV2Logs(ROUTE, call(1_000_000n, { hookData: '0xabcd' })));
    expect(burn).toEqual({
      header: expect.objectContaining({
        cctpVersion: 2,
        sourceDomain: 0,
        destinationDomain: 6,
        nonce: pad('0x00', { size: 32 }),
        sender: pad(ROUTE.sourceTokenMessenger, { size: 32 }),
      }),
      body: {
        version: 1,
        burnToken: pad(ROUTE.burnToken, { size: 32 }),
        mintRecipient: pad(RECIPIENT, { size: 32 }),
        amount: 1_000_000n,
        messageSender: pad(WALLET, { size: 32 }),
        maxFee: 100n,
        feeExecuted: 0n,
        expirationBlock: 0n,
        hookData: '0xabcd',
      },
      twins: { rank: 0, count: 1 },
    });
  });

  it("reads a V1 burn's nonce from its message, checked against DepositForBurn's", () => {
    const [burn] = cctpSentBurns(cctpBurnV1Logs(ROUTE, 4242n, call(5n)));
    expect(burn?.header).toMatchObject({ cctpVersion: 1, sourceDomain: 0, nonce: '4242' });
    expect(burn?.body).toMatchObject({ version: 0, amount: 5n, maxFee: null, hookData: null });
  });

  it('pairs each burn with the MessageSent before it; a message that disagrees with its event is not read', () => {
    const [sentA, burnA] = cctpBurnV2Logs(ROUTE, call(10n));
    const [sentB, burnB] = cctpBurnV2Logs(ROUTE, call(20n));
    const [sentC] = cctpBurnV2Logs(ROUTE, call(31n));
    const [, burnC] = cctpBurnV2Logs(ROUTE, call(30n));
    const burns = cctpSentBurns([sentA, burnA, sentB, burnB, sentC, burnC]);
    expect(burns.map((b) => b?.body.amount ?? null)).toEqual([10n, 20n, null]);
    expect(cctpSentBurns([burnA])).toEqual([null]);
  });

  it('counts burns of the same content: two identical burns are twins 0 and 1 of 2', () => {
    const burns = cctpSentBurns([...cctpBurnV2Logs(ROUTE, call(7n)), ...cctpBurnV2Logs(ROUTE, call(7n))]);
    expect(burns.map((b) => b?.twins)).toEqual([
      { rank: 0, count: 2 },
      { rank: 1, count: 2 },
    ]);
  });
});

describe("cctpFillRecord: this burn's MessageReceived in a batch of receiveMessage calls", () => {
  it('V1: by (source domain, nonce); each message its own amount, its logs up to its MessageReceived', () => {
    const fill = withLogIndexes(
      [
        ...cctpReceiveV1Logs(ROUTE, 11n, call(1000n), FINALIZER),
        ...cctpReceiveV1Logs(ROUTE, 12n, call(2500n), FINALIZER),
      ],
      40,
    );
    const burn = (n: bigint, amount: bigint) => cctpSentBurns(cctpBurnV1Logs(ROUTE, n, call(amount)))[0];
    expect(cctpFillRecord(burn(12n, 2500n), query(fill, [ROUTE.destinationTokenMessenger]))).toEqual({
      kind: 'found',
      depositKey: 'cctp-0-12',
      amount: 2500n,
      recipient: RECIPIENT,
      token: ROUTE.mintToken,
      fromLogIndex: 43,
      toLogIndex: 45,
    });
    expect(cctpFillRecord(burn(11n, 1000n), query(fill))).toMatchObject({
      depositKey: 'cctp-0-11',
      amount: 1000n,
      fromLogIndex: 40,
      toLogIndex: 42,
    });
    expect(cctpFillRecord(burn(13n, 1000n), query(fill))).toEqual({ kind: 'other_deposits' });
  });

  it('V2: by content; the amount is the burn less feeExecuted, keyed by the attested nonce', () => {
    const fill = withLogIndexes([
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(1), feeExecuted: 40n }, call(1_000_000n), FINALIZER),
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(2), feeExecuted: 0n }, call(2_000_000n), FINALIZER),
    ]);
    const [burn] = cctpSentBurns(cctpBurnV2Logs(ROUTE, call(1_000_000n)));
    expect(cctpFillRecord(burn, query(fill))).toEqual({
      kind: 'found',
      depositKey: `cctp-0-${nonce(1)}`,
      amount: 999_960n,
      recipient: RECIPIENT,
      token: ROUTE.mintToken,
      fromLogIndex: 0,
      toLogIndex: 3,
    });
    const [other] = cctpSentBurns(cctpBurnV2Logs(ROUTE, call(1_000_000n, { depositor: STRANGER })));
    expect(cctpFillRecord(other, query(fill))).toEqual({ kind: 'other_deposits' });
  });

  it("two legs' identical burns in one source transaction take one message each, by rank", () => {
    const fill = withLogIndexes([
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(8), feeExecuted: 1n }, call(7n), FINALIZER),
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(9), feeExecuted: 1n }, call(7n), FINALIZER),
    ]);
    const twins = cctpSentBurns([...cctpBurnV2Logs(ROUTE, call(7n)), ...cctpBurnV2Logs(ROUTE, call(7n))]);
    expect(twins.map((b) => cctpFillRecord(b, query(fill)))).toEqual([
      expect.objectContaining({ depositKey: `cctp-0-${nonce(8)}`, amount: 6n }),
      expect.objectContaining({ depositKey: `cctp-0-${nonce(9)}`, amount: 6n }),
    ]);
  });

  it('two messages of this content, one burn in the source transaction: found with the other as interchangeable', () => {
    // The same wallet burnt the same amount to the same recipient in another transaction (another attempt): nothing
    // tells the two messages apart, so the leg takes the first no other leg has claimed (readFill).
    const fill = withLogIndexes([
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(8), feeExecuted: 1n }, call(7n), FINALIZER),
      ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(9), feeExecuted: 2n }, call(7n), FINALIZER),
    ]);
    const [burn] = cctpSentBurns(cctpBurnV2Logs(ROUTE, call(7n)));
    expect(cctpFillRecord(burn, query(fill))).toEqual({
      kind: 'found',
      depositKey: `cctp-0-${nonce(8)}`,
      amount: 6n,
      recipient: expect.any(String),
      token: expect.any(String),
      fromLogIndex: 0,
      toLogIndex: expect.any(Number),
      interchangeable: [expect.objectContaining({ depositKey: `cctp-0-${nonce(9)}`, amount: 5n })],
    });
  });

  it('two burns of one content in the source transaction, one message in the fill: both legs may take it', () => {
    const fill = withLogIndexes(
      cctpReceiveV2Logs(ROUTE, { nonce: nonce(8), feeExecuted: 1n }, call(7n), FINALIZER),
    );
    const twins = cctpSentBurns([...cctpBurnV2Logs(ROUTE, call(7n)), ...cctpBurnV2Logs(ROUTE, call(7n))]);
    const records = twins.map((b) => cctpFillRecord(b, query(fill)));
    // One message, so one leg only: the claim decides which; the other's is in a later mint.
    expect(records).toEqual([
      expect.objectContaining({ kind: 'found', depositKey: `cctp-0-${nonce(8)}` }),
      expect.objectContaining({ kind: 'found', depositKey: `cctp-0-${nonce(8)}` }),
    ]);
    expect(records.map((r) => (r.kind === 'found' ? r.interchangeable : null))).toEqual([
      undefined,
      undefined,
    ]);
  });

  it('a burn whose message was not read, among received messages: not this leg', () => {
    const fill = withLogIndexes(
      cctpReceiveV2Logs(ROUTE, { nonce: nonce(1), feeExecuted: 0n }, call(5n), FINALIZER),
    );
    expect(cctpFillRecord(null, query(fill))).toMatchObject({
      kind: 'other_deposits',
      reason: expect.any(String),
    });
    expect(
      cctpFillRecord(null, query(withLogIndexes([transferLog(ROUTE.mintToken, WALLET, RECIPIENT, 5n)]))),
    ).toEqual({ kind: 'none' });
  });

  it("a message counts only with the allowlisted TokenMessenger's MintAndWithdraw minting what its body says", () => {
    const [mint, mintEvent, received] = cctpReceiveV2Logs(
      ROUTE,
      { nonce: nonce(3), feeExecuted: 0n },
      call(5n),
      FINALIZER,
    );
    const allowed = [ROUTE.destinationTokenMessenger];
    expect(cctpReceipts(withLogIndexes([mint, mintEvent, received]), allowed)).toHaveLength(1);
    // A look-alike MintAndWithdraw from another contract, or none at all before the MessageReceived.
    const forged = { ...mintEvent, address: LOOKALIKE };
    expect(cctpReceipts(withLogIndexes([mint, forged, received]), allowed)).toEqual([]);
    expect(cctpReceipts(withLogIndexes([mint, received]), allowed)).toEqual([]);
    // A real mint of another amount paired with a MessageReceived claiming this body.
    const [, otherMint] = cctpReceiveV2Logs(ROUTE, { nonce: nonce(4), feeExecuted: 0n }, call(6n), FINALIZER);
    expect(cctpReceipts(withLogIndexes([mint, otherMint, received]), allowed)).toEqual([]);
    // A MessageReceived after a real receipt has no mint of its own before it.
    expect(cctpReceipts(withLogIndexes([mint, mintEvent, received, received]), allowed)).toHaveLength(1);
  });
});
