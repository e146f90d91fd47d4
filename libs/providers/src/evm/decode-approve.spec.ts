import { decodeFunctionData, encodeFunctionData, erc20Abi, type Hex } from 'viem';
import { decodeApprove, decodeTransfer } from './decode-approve';

const SPENDER = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const approve = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, 1_500_000n] });
const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [SPENDER, 7n] });
const transferFrom = encodeFunctionData({
  abi: erc20Abi,
  functionName: 'transferFrom',
  args: [SPENDER, SPENDER, 7n],
});

/** What viem's own decodeFunctionData over the whole ERC-20 ABI says, the decoders' reference. */
function reference(data: Hex, name: 'approve' | 'transfer'): readonly unknown[] | null {
  try {
    const decoded = decodeFunctionData({ abi: erc20Abi, data });
    return decoded.functionName === name ? decoded.args : null;
  } catch {
    return null;
  }
}

describe('decodeApprove and decodeTransfer (selectors hashed once)', () => {
  const cases: [string, Hex][] = [
    ['approve', approve],
    ['transfer', transfer],
    ['transferFrom', transferFrom],
    ['approve with trailing bytes', `${approve}00`],
    ['approve cut short', approve.slice(0, 40) as Hex],
    ['a bare selector', approve.slice(0, 10) as Hex],
    ['empty calldata', '0x'],
    ['upper-case selector', `0x095EA7B3${approve.slice(10)}`],
    ['upper-case words', `0x095ea7b3${approve.slice(10).toUpperCase()}`],
    ['an address word with high bytes set', `0x095ea7b3${'ff'.repeat(12)}${approve.slice(34)}`],
    ['the largest amount', `${approve.slice(0, 74)}${'f'.repeat(64)}` as Hex],
    ['an odd number of hex digits', `${approve}0`],
    ['a non-hex digit in a word', `${approve.slice(0, 80)}zz${approve.slice(82)}` as Hex],
  ];

  it.each(cases)('agree with viem decodeFunctionData on %s', (_, data) => {
    const asApprove = reference(data, 'approve');
    expect(decodeApprove(data)).toEqual(
      asApprove === null ? null : { spender: asApprove[0], amount: asApprove[1] },
    );
    const asTransfer = reference(data, 'transfer');
    expect(decodeTransfer(data)).toEqual(
      asTransfer === null ? null : { to: asTransfer[0], amount: asTransfer[1] },
    );
  });

  it('reads the spender checksummed and the amount as a bigint', () => {
    expect(decodeApprove(approve)).toEqual({ spender: SPENDER, amount: 1_500_000n });
    expect(decodeTransfer(transfer)).toEqual({ to: SPENDER, amount: 7n });
    expect(decodeApprove(transfer)).toBeNull();
    expect(decodeTransfer(approve)).toBeNull();
  });
});
