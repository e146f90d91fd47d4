import { type AbiParameter, type Address, encodeAbiParameters, encodeEventTopics, type Hex, pad } from 'viem';
import { type FillReceiptLog } from '../fill-record';
import { acrossFillEventsAbi, acrossFillRecord } from './across-fill-records';

/** The event's data fields: every input but the indexed ones. */
const nonIndexed = (inputs: readonly AbiParameter[]) =>
  inputs.filter((input) => !('indexed' in input && input.indexed === true));

const POOL: Address = '0x4e8e101924ede233c13e2d8622dc8aed2872d505';
const LOOKALIKE: Address = '0x000000000000000000000000000000000000dead';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const USDC: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const [FILLED_RELAY, FILLED_V3_RELAY] = acrossFillEventsAbi;
const b32 = (a: Address): Hex => pad(a, { size: 32 });

/** A `FilledRelay` as SpokePool.sol `_emitFilledRelayEvent` writes it (V3SpokePoolInterface.sol field order). */
function filledRelay(
  logIndex: number,
  fill: {
    originChainId: bigint;
    depositId: bigint;
    amount: bigint;
    updatedAmount?: bigint;
    emitter?: Address;
  },
): FillReceiptLog {
  const topics = encodeEventTopics({
    abi: [FILLED_RELAY],
    eventName: 'FilledRelay',
    args: { originChainId: fill.originChainId, depositId: fill.depositId, relayer: b32(LOOKALIKE) },
  }) as Hex[];
  const data = encodeAbiParameters(nonIndexed(FILLED_RELAY.inputs), [
    b32(USDC),
    b32(USDC),
    fill.amount + 10n,
    fill.amount,
    1n,
    0,
    0,
    pad('0x00', { size: 32 }),
    b32(RECIPIENT),
    b32(RECIPIENT),
    pad('0x00', { size: 32 }),
    {
      updatedRecipient: b32(RECIPIENT),
      updatedMessageHash: pad('0x00', { size: 32 }),
      updatedOutputAmount: fill.updatedAmount ?? fill.amount,
      fillType: 0,
    },
  ]);
  return { address: fill.emitter ?? POOL, topics, data, logIndex };
}

/** The legacy `FilledV3Relay` (address fields, uint32 depositId), as pools before the bytes32 upgrade emitted it. */
function filledV3Relay(logIndex: number, depositId: number, amount: bigint): FillReceiptLog {
  const topics = encodeEventTopics({
    abi: [FILLED_V3_RELAY],
    eventName: 'FilledV3Relay',
    args: { originChainId: 10n, depositId, relayer: LOOKALIKE },
  }) as Hex[];
  const data = encodeAbiParameters(nonIndexed(FILLED_V3_RELAY.inputs), [
    USDC,
    USDC,
    amount,
    amount,
    1n,
    0,
    0,
    LOOKALIKE,
    RECIPIENT,
    RECIPIENT,
    '0x',
    {
      updatedRecipient: RECIPIENT,
      updatedMessage: '0x',
      updatedOutputAmount: amount,
      fillType: 0,
    },
  ]);
  return { address: POOL, topics, data, logIndex };
}

/** A token transfer between records (its content does not matter to the record's span). */
const transfer = (logIndex: number): FillReceiptLog => ({ address: USDC, topics: [], data: '0x', logIndex });

const TX = { to: POOL, input: '0x' as Hex, value: 0n };
const query = (logs: FillReceiptLog[], ref: string | null, emitters: Address[] | null = [POOL]) => ({
  chainId: 8453,
  logs,
  tx: TX,
  deposit: { index: 0, ref },
  ...(emitters === null ? {} : { emitters }),
});

describe('acrossFillRecord: the FilledRelay of this deposit in a fill transaction (issue 24 item 1)', () => {
  // A relayer multicall of three fills: deposits 7 and 8 from Arbitrum, 7 from Optimism (same id, other chain).
  const multicall = [
    filledRelay(10, { originChainId: 42161n, depositId: 7n, amount: 1000n }),
    transfer(11),
    filledRelay(12, { originChainId: 42161n, depositId: 8n, amount: 2500n, updatedAmount: 2400n }),
    transfer(13),
    filledRelay(14, { originChainId: 10n, depositId: 7n, amount: 9n }),
    transfer(15),
  ];

  it('finds each deposit by (originChainId, depositId), its delivery span up to the next record', () => {
    expect(acrossFillRecord(42161, query(multicall, '7'))).toEqual({
      kind: 'found',
      depositKey: 'across-42161-7',
      amount: 1000n,
      recipient: RECIPIENT,
      token: USDC,
      fromLogIndex: 11,
      toLogIndex: 12,
    });
    expect(acrossFillRecord(10, query(multicall, '7'))).toMatchObject({
      depositKey: 'across-10-7',
      amount: 9n,
      fromLogIndex: 15,
      toLogIndex: 16,
    });
  });

  it('takes the amount the pool paid: relayExecutionInfo.updatedOutputAmount (a sped-up deposit)', () => {
    expect(acrossFillRecord(42161, query(multicall, '8'))).toMatchObject({ amount: 2400n });
  });

  it("answers other_deposits when the records are others', none when there are none", () => {
    expect(acrossFillRecord(42161, query(multicall, '9'))).toEqual({ kind: 'other_deposits' });
    expect(acrossFillRecord(42161, query(multicall, null))).toEqual({ kind: 'other_deposits' });
    expect(acrossFillRecord(42161, query([transfer(1)], '7'))).toEqual({ kind: 'none' });
  });

  it("a CCTP-routed leg (ref cctp:<index>) is no pool fill's: other_deposits among FilledRelays, none without", () => {
    expect(acrossFillRecord(42161, query(multicall, 'cctp:0'))).toEqual({ kind: 'other_deposits' });
    expect(acrossFillRecord(42161, query([transfer(1)], 'cctp:0'))).toEqual({ kind: 'none' });
  });

  it('ignores a look-alike FilledRelay from a contract that is not the SpokePool (N12)', () => {
    const forged = [
      filledRelay(3, { originChainId: 42161n, depositId: 7n, amount: 10n ** 9n, emitter: LOOKALIKE }),
    ];
    expect(acrossFillRecord(42161, query(forged, '7'))).toEqual({ kind: 'none' });
    expect(acrossFillRecord(42161, query(forged, '7', null))).toMatchObject({ kind: 'found' });
  });

  it('reads the legacy FilledV3Relay', () => {
    expect(acrossFillRecord(10, query([filledV3Relay(0, 5, 777n), transfer(1)], '5'))).toEqual({
      kind: 'found',
      depositKey: 'across-10-5',
      amount: 777n,
      recipient: RECIPIENT,
      token: USDC,
      fromLogIndex: 1,
      toLogIndex: 2,
    });
  });
});
