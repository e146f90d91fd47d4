import { decodeEventLog, type Hex } from 'viem';
import { type FillReceiptLog } from '../fill-record';
import { type ReceiptLog } from '../provider-adapter.port';
import { acrossDepositRefs, acrossSpokePoolEventsAbi } from './across-deposit-refs';
import { acrossFillRecord } from './across-fill-records';
import { ACROSS_CONTRACTS } from '../vouch/across-contracts';
import mainnet from './fixtures/mainnet-deposit-and-fill-logs.json';

/**
 * The deposit decoder on a real mainnet deposit: Base → Arbitrum, depositId 5287817, as Across's own indexer test
 * records it (fixtures/mainnet-deposit-and-fill-logs.json, fixtures/SOURCES.md).
 */
const deposit = mainnet.fundsDeposited.log as ReceiptLog & { logIndex: number };

// Two other logs of the same transaction's kind around it: the USDC pulled into the pool and its approval.
const usdcTransfer: ReceiptLog = {
  address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  topics: [
    '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
    `0x${'9a8f92a830a5cb89a3816e3d267cb7791c16b04d'.padStart(64, '0')}`,
    `0x${'09aea4b2242abc8bb4bb78d537a67a245a7bec64'.padStart(64, '0')}`,
  ],
  data: `0x${(1009060).toString(16).padStart(64, '0')}`,
};

describe('Across deposit refs on a mainnet FundsDeposited (Base SpokePool, tx 0x07eca2b2…0cc6)', () => {
  it('reads the depositId Across indexed, 5287817, from the log as the chain holds it', () => {
    expect(acrossDepositRefs([usdcTransfer, deposit])).toEqual(['5287817']);
  });

  it('decodes strictly, every field as Across indexed it (the ABI matches the layout on chain)', () => {
    const { eventName, args } = decodeEventLog({
      abi: acrossSpokePoolEventsAbi,
      topics: deposit.topics as [Hex, ...Hex[]],
      data: deposit.data,
    });
    expect(eventName).toBe('FundsDeposited');
    expect(args).toMatchObject({
      destinationChainId: 42161n,
      depositId: 5287817n,
      inputAmount: 1009060n,
      outputAmount: 1000000n,
      quoteTimestamp: 1767978275,
      fillDeadline: 1767985475,
      exclusivityDeadline: 1767978416,
      message: '0x',
    });
    expect(args.recipient.slice(-40)).toBe('9a8f92a830a5cb89a3816e3d267cb7791c16b04d');
    expect(args.outputToken.slice(-40)).toBe('af88d065e77c8cc2239327c5edb3a432268e5831');
  });

  it('two deposits in one transaction keep their log order', () => {
    const second = {
      ...deposit,
      topics: [
        deposit.topics[0],
        deposit.topics[1],
        `0x${(5287818).toString(16).padStart(64, '0')}`,
        deposit.topics[3],
      ],
    } as ReceiptLog;
    expect(acrossDepositRefs([deposit, usdcTransfer, second])).toEqual(['5287817', '5287818']);
  });

  it('a fill record is no deposit: the FilledRelay of the same deposit on Arbitrum yields no ref', () => {
    expect(acrossDepositRefs([mainnet.filledRelay.log as ReceiptLog])).toEqual([]);
  });
});

describe("Across's fill record on the mainnet FilledRelay of that deposit (Arbitrum SpokePool, tx 0xc9f5e1df…fedd)", () => {
  const fill = { ...mainnet.filledRelay.log, logIndex: 4 } as FillReceiptLog;
  // The USDC the relayer's fill moved to the recipient right after the record (SpokePool._fillRelayV3).
  const delivery: FillReceiptLog = {
    address: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
    topics: [
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      `0x${'ef1ec136931ab5728b0783fd87d109c9d15d31f1'.padStart(64, '0')}`,
      `0x${'9a8f92a830a5cb89a3816e3d267cb7791c16b04d'.padStart(64, '0')}`,
    ],
    data: `0x${(1000000).toString(16).padStart(64, '0')}`,
    logIndex: 5,
  };
  const arbitrumPool = ACROSS_CONTRACTS.get(42161)!.targets;

  it("finds the deposit by (origin chain, depositId) as Across's indexer recorded it, emitted by the allowlisted pool", () => {
    expect(
      acrossFillRecord(8453, {
        chainId: 42161,
        logs: [fill, delivery],
        tx: { to: null, input: '0x', value: 0n },
        deposit: { index: 0, ref: '5287817' },
        emitters: arbitrumPool,
      }),
    ).toEqual({
      kind: 'found',
      depositKey: 'across-8453-5287817',
      amount: 1000000n,
      recipient: '0x9a8f92a830a5cb89a3816e3d267cb7791c16b04d',
      token: '0xaf88d065e77c8cc2239327c5edb3a432268e5831',
      fromLogIndex: 5,
      toLogIndex: 6,
    });
  });

  it('is not found for another deposit id, another origin chain, or a pool the allowlist does not name (N12)', () => {
    const query = {
      chainId: 42161,
      logs: [fill, delivery],
      tx: { to: null, input: '0x' as const, value: 0n },
    };
    expect(
      acrossFillRecord(8453, { ...query, deposit: { index: 0, ref: '5287818' }, emitters: arbitrumPool }),
    ).toEqual({ kind: 'other_deposits' });
    expect(
      acrossFillRecord(10, { ...query, deposit: { index: 0, ref: '5287817' }, emitters: arbitrumPool }),
    ).toEqual({ kind: 'other_deposits' });
    expect(
      acrossFillRecord(8453, {
        ...query,
        deposit: { index: 0, ref: '5287817' },
        emitters: ACROSS_CONTRACTS.get(8453)!.targets,
      }),
    ).toEqual({ kind: 'none' });
  });
});
