import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  pad,
  parseAbi,
  zeroAddress,
} from 'viem';
import { type FillReceiptLog } from '../fill-record';
import { mayanFillRecord } from './mayan-fill-record';

const SWIFT: Address = '0xc38e4e6a15593f908255214653d3d947ca1c2338';
const LOOKALIKE: Address = '0x000000000000000000000000000000000000dead';
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const KEY: Hex = `0x${'11'.repeat(32)}`;
const OTHER_KEY: Hex = `0x${'22'.repeat(32)}`;
const abi = parseAbi([
  'event OrderFulfilled(bytes32 key, uint64 sequence, uint256 netAmount)',
  'event Transfer(address indexed from, address indexed to, uint256 value)',
]);

const REFERRER: Address = '0x00000000000000000000000000000000000000bb';
const FEE_COLLECTOR: Address = '0x00000000000000000000000000000000000000cc';

/** OrderFulfilled as swap-sdk's Swift ABIs declare it: nothing indexed, the key first in the data. */
const fulfilled = (
  logIndex: number,
  key: Hex,
  netAmount: bigint,
  emitter: Address = SWIFT,
): FillReceiptLog => ({
  address: emitter,
  topics: encodeEventTopics({ abi, eventName: 'OrderFulfilled' }) as Hex[],
  data: encodeAbiParameters(
    [{ type: 'bytes32' }, { type: 'uint64' }, { type: 'uint256' }],
    [key, 5n, netAmount],
  ),
  logIndex,
});
const transfer = (logIndex: number, to: Address, value: bigint): FillReceiptLog => ({
  address: USDC,
  topics: encodeEventTopics({ abi, eventName: 'Transfer', args: { from: SWIFT, to } }) as Hex[],
  data: pad(`0x${value.toString(16)}`, { size: 32 }),
  logIndex,
});
const query = (logs: FillReceiptLog[], ref: string | null, token: Address = USDC) => ({
  chainId: 8453,
  logs,
  tx: { to: SWIFT, input: '0x' as Hex, value: 0n },
  deposit: { index: 0, ref },
  recipient: RECIPIENT,
  token,
  emitters: [SWIFT],
});

describe("mayanFillRecord: the Swift order's OrderFulfilled (issue 24 item 1)", () => {
  it("V1's fulfilment (swap-bridge MayanSwift.sol makePayments): the record's netAmount, its span the payments before it", () => {
    // The driver's tokens in, the referrer's and the protocol's shares, the recipient's net, then the record.
    const logs = [
      transfer(0, SWIFT, 1_000_000n),
      transfer(1, REFERRER, 5_000n),
      transfer(2, FEE_COLLECTOR, 3_000n),
      transfer(3, RECIPIENT, 992_000n),
      fulfilled(4, KEY, 992_000n),
    ];
    expect(mayanFillRecord(query(logs, KEY.toUpperCase().replace('0X', '0x')))).toEqual({
      kind: 'found',
      depositKey: `mayan-${KEY}`,
      amount: 992_000n,
      recipient: RECIPIENT,
      token: USDC,
      fromLogIndex: 0,
      toLogIndex: 5,
    });
  });

  it('the record states the amount, not the sum of transfers to the recipient (a stranger paid it in the same tx)', () => {
    const logs = [transfer(0, RECIPIENT, 7n), transfer(1, RECIPIENT, 990n), fulfilled(2, KEY, 990n)];
    expect(mayanFillRecord(query(logs, KEY))).toMatchObject({ kind: 'found', amount: 990n });
  });

  it('two orders fulfilled in one transaction: each its own amount and span, between the records', () => {
    const both = [
      transfer(0, RECIPIENT, 9n),
      fulfilled(1, OTHER_KEY, 9n),
      transfer(2, RECIPIENT, 8n),
      fulfilled(3, KEY, 8n),
    ];
    expect(mayanFillRecord(query(both, KEY))).toMatchObject({
      kind: 'found',
      amount: 8n,
      fromLogIndex: 2,
      toLogIndex: 4,
    });
    expect(mayanFillRecord(query(both, OTHER_KEY))).toMatchObject({
      kind: 'found',
      depositKey: `mayan-${OTHER_KEY}`,
      amount: 9n,
      fromLogIndex: 0,
      toLogIndex: 2,
    });
  });

  it('a native payout (payViaCall / payEth, no Transfer): the record states the amount the value must cover', () => {
    expect(mayanFillRecord(query([fulfilled(0, KEY, 10n ** 15n)], KEY, zeroAddress))).toMatchObject({
      kind: 'found',
      amount: 10n ** 15n,
      token: zeroAddress,
    });
  });

  it("another order's fill is not this one's, nor is any before this leg's order key is known", () => {
    expect(mayanFillRecord(query([transfer(0, RECIPIENT, 9n), fulfilled(1, OTHER_KEY, 9n)], KEY))).toEqual({
      kind: 'other_deposits',
    });
    expect(mayanFillRecord(query([transfer(0, RECIPIENT, 9n), fulfilled(1, KEY, 9n)], null))).toEqual({
      kind: 'other_deposits',
    });
  });

  it('a look-alike record of another contract, or a plain transfer: no record', () => {
    expect(
      mayanFillRecord(query([transfer(0, RECIPIENT, 9n), fulfilled(1, KEY, 9n, LOOKALIKE)], KEY)),
    ).toEqual({
      kind: 'none',
    });
    expect(mayanFillRecord(query([transfer(0, RECIPIENT, 9n)], KEY))).toEqual({ kind: 'none' });
  });
});
