import { attributeFill, type FillAttribution } from '@svc/domain';
import { AcrossAdapter, type DepositSelector, type ReceiptLog, VouchedProviderAdapter } from '@svc/providers';
import {
  type CctpBurnCall,
  cctpBurnV2Logs,
  cctpReceiveV2Logs,
  ETHEREUM_TO_BASE_CCTP_ROUTE,
  withLogIndexes,
} from '@svc/testing';
import { type Address, type Hex, pad, toHex } from 'viem';
import { tokenTransfers } from '../observe/read-fill-logs';
import { fillRecordFinding } from './read-fill';

/**
 * Issue 24 item 1 residue (providers review N1, N3): two Across legs of one attempt routed over CCTP V2 to one
 * recipient, minted by the finalizer in one transaction that also receives a stranger's message to the same
 * recipient. Before, a CCTP leg had no fill record (acrossFillRecord answered `none`), so it fell back to "the
 * transaction's sole transfer to the recipient", and three mints to the recipient were rejected as ambiguous: both
 * legs ended settlement_timeout though their money arrived. The legs' records are found as the tracker finds them:
 * the selector as poll-provider-step builds it from the source receipt, the record through the vouched adapter
 * (emitters allowlisted), mapped as read-fill maps it, attributed by attributeFill over the fill's USDC transfers.
 */
const ROUTE = ETHEREUM_TO_BASE_CCTP_ROUTE;
const WALLET: Address = '0x00000000000000000000000000000000000000a1';
const STRANGER: Address = '0x00000000000000000000000000000000000000b2';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const FINALIZER: Address = '0x00000000000000000000000000000000000000f1';
const CONTEXT = { provider: 'across' as const, originChainId: 1, destinationChainId: 8453 };
const nonce = (n: number): Hex => pad(toHex(n), { size: 32 });

const burn = (depositor: Address, amount: bigint): CctpBurnCall => ({
  depositor,
  mintRecipient: RECIPIENT,
  amount,
  maxFee: 500n,
  destinationCaller: FINALIZER,
});
const legA = burn(WALLET, 1_000_000n);
const legB = burn(WALLET, 2_500_000n);
const stranger = burn(STRANGER, 7_000_000n);

/** The attempt's source transaction: a wallet_sendCalls batch of two depositForBurn calls (Across CCTP route). */
const SOURCE: ReceiptLog[] = [...cctpBurnV2Logs(ROUTE, legA), ...cctpBurnV2Logs(ROUTE, legB)];

/** The finalizer's batch: leg A's message, a stranger's, leg B's, each with its attested nonce and fee. */
const FILL = withLogIndexes(
  [
    ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(101), feeExecuted: 100n }, legA, FINALIZER),
    ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(102), feeExecuted: 0n }, stranger, FINALIZER),
    ...cctpReceiveV2Logs(ROUTE, { nonce: nonce(103), feeExecuted: 250n }, legB, FINALIZER),
  ],
  17,
);

const adapter = new VouchedProviderAdapter(
  new AcrossAdapter({
    baseUrl: 'http://127.0.0.1:1',
    apiKey: null,
    integratorId: null,
    timeoutMs: 1000,
    minPollIntervalMs: 10_000,
  }),
  new Map([[8453, { targets: [ROUTE.destinationTokenMessenger], spenders: [] }]]),
);

/** given the source receipt and the fill transaction, when leg `index` reads its fill, then its attribution. */
function attributeLeg(index: number): FillAttribution {
  const deposit: DepositSelector = {
    index,
    ref: adapter.depositRefs(SOURCE)[index] ?? null,
    cctpBurn: adapter.depositCctpBurns?.(SOURCE)[index] ?? null,
  };
  const found = adapter.fillRecord(CONTEXT, {
    chainId: 8453,
    logs: FILL,
    tx: { to: FINALIZER, input: '0x', value: 0n },
    deposit,
    recipient: RECIPIENT,
    token: ROUTE.mintToken,
  });
  return attributeFill({
    record: fillRecordFinding(found),
    transfers: tokenTransfers(FILL, ROUTE.mintToken),
    recipient: RECIPIENT,
    token: ROUTE.mintToken,
  });
}

describe('a CCTP finalizer batch of three mints to one recipient: two legs of one attempt and a stranger', () => {
  it('each leg takes its own message: its burn less the fee executed, keyed by source domain and nonce', () => {
    expect(attributeLeg(0)).toEqual({
      kind: 'attributed',
      depositKey: `cctp-0-${nonce(101)}`,
      amount: '999900',
    });
    expect(attributeLeg(1)).toEqual({
      kind: 'attributed',
      depositKey: `cctp-0-${nonce(103)}`,
      amount: '2499750',
    });
  });

  it("the stranger's mint counts for nobody: the legs' amounts are theirs, never the recipient's total", () => {
    const toRecipient = tokenTransfers(FILL, ROUTE.mintToken)
      .filter((t) => t.to === RECIPIENT)
      .reduce((sum, t) => sum + BigInt(t.amount), 0n);
    const attributed = [attributeLeg(0), attributeLeg(1)].reduce(
      (sum, a) => sum + (a.kind === 'attributed' ? BigInt(a.amount) : 0n),
      0n,
    );
    expect(toRecipient - attributed).toBe(7_000_000n);
    const keys = [attributeLeg(0), attributeLeg(1)].map((a) =>
      a.kind === 'attributed' ? a.depositKey : null,
    );
    expect(keys).not.toContain(`cctp-0-${nonce(102)}`);
    expect(new Set(keys).size).toBe(2);
  });
});
