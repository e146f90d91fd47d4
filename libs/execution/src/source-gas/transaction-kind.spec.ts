import { encodeFunctionData, erc20Abi } from 'viem';
import { type DraftCall } from '../chain-actions/draft-call';
import { transactionKind } from './transaction-kind';

const TOKEN = '0x00000000000000000000000000000000000000aa';
const SPENDER = '0x00000000000000000000000000000000000000bb';
const call = (kind: DraftCall['kind'], data: string): DraftCall => ({
  to: TOKEN,
  data,
  value: '0',
  gas: null,
  kind,
});
const approve = (amount: bigint) =>
  encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [SPENDER, amount] });

describe('transactionKind', () => {
  it('tells an approval from the USDT-style reset to zero by its amount', () => {
    expect(transactionKind(call('approve', approve(5n)), 'across')).toBe('approve');
    expect(transactionKind(call('approve', approve(0n)), 'across')).toBe('approve_reset');
    expect(transactionKind(call('approve', approve(0n).toUpperCase().replace('0X', '0x')), 'relay')).toBe(
      'approve_reset',
    );
  });

  it('counts an approve call it cannot read as an approval, never as a reset', () => {
    const transfer = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [SPENDER, 0n] });
    expect(transactionKind(call('approve', transfer), 'relay')).toBe('approve');
    expect(transactionKind(call('approve', approve(0n).slice(0, 20)), 'relay')).toBe('approve');
  });

  it('names deposits, the no-op transfers and any other call', () => {
    expect(transactionKind(call('deposit', '0x1234'), 'mayan')).toBe('deposit');
    expect(transactionKind(call('other', '0x'), 'direct')).toBe('transfer');
    expect(transactionKind(call('other', '0x1234'), 'relay')).toBe('other');
  });
});
