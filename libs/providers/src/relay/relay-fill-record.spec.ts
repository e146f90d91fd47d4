import {
  type Address,
  encodeEventTopics,
  encodeFunctionData,
  erc20Abi,
  type Hex,
  pad,
  parseAbi,
  zeroAddress,
} from 'viem';
import { type FillReceiptLog } from '../fill-record';
import { relayFillRecord } from './relay-fill-record';

const REQUEST: Hex = `0x${'ab'.repeat(32)}`;
const OTHER_REQUEST: Hex = `0x${'cd'.repeat(32)}`;
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const SOLVER: Address = '0x00000000000000000000000000000000000000ee';
const transferAbi = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);

const transferLog = (logIndex: number, to: Address, value: bigint): FillReceiptLog => ({
  address: USDC,
  topics: encodeEventTopics({ abi: transferAbi, eventName: 'Transfer', args: { from: SOLVER, to } }) as Hex[],
  data: pad(`0x${value.toString(16)}`, { size: 32 }),
  logIndex,
});

/** The solver's direct ERC-20 fill: `transfer(recipient, amount)` with the order id appended to the calldata. */
const erc20Fill = (orderId: Hex, amount: bigint) =>
  (encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, amount] }) +
    orderId.slice(2)) as Hex;

const query = (
  input: Hex,
  logs: FillReceiptLog[],
  token: Address = USDC,
  tx: { to: Address; value: bigint } = { to: USDC, value: 0n },
) => ({
  chainId: 8453,
  logs,
  tx: { ...tx, input },
  deposit: null,
  recipient: RECIPIENT,
  token,
});

describe("relayFillRecord: the request's fill as Relay's oracle attests it (issue 24 item 1)", () => {
  it('an ERC-20 fill whose calldata ends with the request id: its transfers to the recipient, keyed by the request', () => {
    const logs = [transferLog(0, RECIPIENT, 990n), transferLog(1, SOLVER, 5n)];
    expect(relayFillRecord(REQUEST, query(erc20Fill(REQUEST, 990n), logs))).toEqual({
      kind: 'found',
      depositKey: `relay-${REQUEST}`,
      amount: 990n,
      recipient: RECIPIENT,
      token: USDC,
      fromLogIndex: 0,
      toLogIndex: 2,
    });
  });

  it("another request's fill, or a plain transfer, is not this request's record", () => {
    const logs = [transferLog(0, RECIPIENT, 990n)];
    expect(relayFillRecord(REQUEST, query(erc20Fill(OTHER_REQUEST, 990n), logs))).toEqual({ kind: 'none' });
    const plain = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, 990n] });
    expect(relayFillRecord(REQUEST, query(plain, logs))).toEqual({ kind: 'none' });
  });

  it('a direct native fill: the value of a transaction to the recipient whose calldata starts with the id', () => {
    const direct = query(REQUEST, [], zeroAddress, { to: RECIPIENT, value: 7n });
    expect(relayFillRecord(REQUEST, direct)).toMatchObject({ kind: 'found', amount: 7n, token: zeroAddress });
    const viaContract = query(`0x1234${REQUEST.slice(2)}` as Hex, [], zeroAddress, { to: SOLVER, value: 7n });
    expect(relayFillRecord(REQUEST, viaContract)).toEqual({ kind: 'none' });
  });
});
