import { l1DataFee } from './l1-data-fee';
import { sandboxFeeModel } from './sandbox-fee-models';

describe('l1DataFee', () => {
  const model = sandboxFeeModel(8453)!.l1DataFee!;

  it('counts zero bytes 4 gas and others 16, with no padding, and prices them with the Ecotone formula', () => {
    const fee = l1DataFee('0x02000001', model);
    expect(fee.l1GasUsed).toBe(16n + 4n + 4n + 16n);
    const scaled = 16n * 2269n * 4_000_000_000n + 1_055_778n * 1_000_000n;
    expect(fee.l1Fee).toBe((40n * scaled) / 16_000_000n);
    expect(fee).toMatchObject({
      l1BaseFee: 4_000_000_000n,
      l1BaseFeeScalar: 2269n,
      l1BlobBaseFeeScalar: 1_055_778n,
    });
  });
});
