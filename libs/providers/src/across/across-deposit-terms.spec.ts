import { encodeAbiParameters, encodeEventTopics, type Hex } from 'viem';
import { type ReceiptLog } from '../provider-adapter.port';
import { acrossDepositTerms, acrossSpokePoolEventsAbi } from './across-deposit-refs';
import mainnet from './fixtures/mainnet-deposit-and-fill-logs.json';

const deposit = mainnet.fundsDeposited.log as ReceiptLog;
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';

describe("Across deposit terms: the deposit's own fill deadline and refund token (issue 24 item 2, N2, N7)", () => {
  it('a mainnet FundsDeposited (Base, depositId 5287817): fillDeadline = quoteTimestamp + 2 h, refunds in its input token', () => {
    // quoteTimestamp 1767978275, fillDeadline 1767985475: the frontend's default 2 h buffer (api/_fill-deadline.ts).
    expect(acrossDepositTerms([deposit])).toEqual([
      { fillDeadlineAt: 1767985475 * 1000, refundToken: BASE_USDC },
    ]);
    expect(1767985475 - 1767978275).toBe(2 * 3600);
  });

  it('a native-input deposit names WETH as its input token: its refund is read in WETH (N7 second half)', () => {
    const weth = '0x4200000000000000000000000000000000000006';
    const v3 = acrossSpokePoolEventsAbi[1];
    const topics = encodeEventTopics({
      abi: [v3],
      eventName: 'V3FundsDeposited',
      args: { destinationChainId: 42161n, depositId: 7, depositor: `0x${'aa'.repeat(20)}` },
    }) as Hex[];
    const data = encodeAbiParameters(
      v3.inputs.filter((i) => !('indexed' in i && i.indexed)),
      [
        weth,
        weth,
        10n ** 16n,
        10n ** 16n - 1000n,
        1_700_000_000,
        1_700_007_200,
        0,
        `0x${'bb'.repeat(20)}`,
        `0x${'00'.repeat(20)}`,
        '0x',
      ],
    );
    expect(acrossDepositTerms([{ address: `0x${'cc'.repeat(20)}`, topics, data }])).toEqual([
      { fillDeadlineAt: 1_700_007_200_000, refundToken: weth },
    ]);
  });

  it('in the order of the deposit refs, other logs skipped; a log whose data does not decode names nothing', () => {
    const broken = { ...deposit, data: '0x' as Hex };
    expect(acrossDepositTerms([mainnet.filledRelay.log as ReceiptLog, deposit, broken])).toEqual([
      { fillDeadlineAt: 1767985475 * 1000, refundToken: BASE_USDC },
      { fillDeadlineAt: null, refundToken: null },
    ]);
  });
});
