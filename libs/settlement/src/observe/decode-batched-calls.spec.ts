import { concat, encodeFunctionData, numberToHex, pad, parseAbi, type Hex } from 'viem';
import { encodeCalls, encodeExecuteBatchesData, encodeExecuteData } from 'viem/experimental/erc7821';
import { decodeBatchedCalls } from './decode-batched-calls';

const token = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const forwarder = '0x337685fdaB40D39bd02028545a4FfA7D287cC3E2';
const calls = [
  {
    to: token,
    value: 0n,
    data: '0x095ea7b30000000000000000000000000000000000000000000000000000000000000001',
  },
  { to: forwarder, value: 10n ** 15n, data: '0xb0f584ff' },
] as const satisfies readonly { to: Hex; value: bigint; data: Hex }[];

const accountAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function executeBatch(Call[] calls)',
  'function execute(Call[] calls)',
  'function execute(address target, uint256 value, bytes data)',
  'function execute(bytes32 mode, bytes executionData)',
]);
const asStructs = calls.map(({ to, value, data }) => ({ target: to, value, data }));
const mode = (callType: string, execType: string, selector = '00000000'): Hex =>
  pad(`0x${callType}${execType}00000000${selector}`, { dir: 'right', size: 32 });

describe('decodeBatchedCalls', () => {
  it('decodes executeBatch((address,uint256,bytes)[]) and execute((address,uint256,bytes)[])', () => {
    for (const functionName of ['executeBatch', 'execute'] as const) {
      const data = encodeFunctionData({ abi: accountAbi, functionName, args: [asStructs] });
      expect(decodeBatchedCalls(data)).toEqual({ supported: true, calls });
    }
  });

  it('decodes ERC-7821 execute as viem encodes it, with and without opData', () => {
    expect(decodeBatchedCalls(encodeExecuteData({ calls }))).toEqual({ supported: true, calls });
    expect(decodeBatchedCalls(encodeExecuteData({ calls, opData: '0xdeadbeef' }))).toEqual({
      supported: true,
      calls,
    });
  });

  it('decodes one call: execute(address,uint256,bytes) and the ERC-7579 single call type', () => {
    const [, second] = calls;
    const single = encodeFunctionData({
      abi: accountAbi,
      functionName: 'execute',
      args: [second.to, second.value, second.data],
    });
    expect(decodeBatchedCalls(single)).toEqual({ supported: true, calls: [second] });
    const packed = concat([second.to, numberToHex(second.value, { size: 32 }), second.data]);
    const erc7579 = encodeFunctionData({
      abi: accountAbi,
      functionName: 'execute',
      args: [mode('00', '00'), packed],
    });
    expect(decodeBatchedCalls(erc7579)).toEqual({ supported: true, calls: [second] });
  });

  it('reads calldata in any hex case', () => {
    const data = encodeFunctionData({ abi: accountAbi, functionName: 'executeBatch', args: [asStructs] });
    expect(decodeBatchedCalls(data.toUpperCase().replace('0X', '0x') as Hex)).toEqual({
      supported: true,
      calls,
    });
  });

  it('refuses try mode, where a failed call does not revert the transaction', () => {
    const data = encodeFunctionData({
      abi: accountAbi,
      functionName: 'execute',
      args: [mode('01', '01'), encodeCalls(calls)],
    });
    expect(decodeBatchedCalls(data)).toEqual({
      supported: false,
      reason: expect.stringMatching(/does not revert on a failed call/),
    });
  });

  it('refuses delegatecall, batches of batches and unknown modes', () => {
    const delegate = encodeFunctionData({
      abi: accountAbi,
      functionName: 'execute',
      args: [mode('ff', '00'), encodeCalls(calls)],
    });
    const batches = encodeExecuteBatchesData({ batches: [{ calls }] });
    for (const data of [delegate, batches]) {
      expect(decodeBatchedCalls(data)).toEqual({
        supported: false,
        reason: expect.stringMatching(/^unsupported execution mode/),
      });
    }
  });

  it('refuses other entry points and calldata that does not decode', () => {
    expect(decodeBatchedCalls('0x')).toEqual({ supported: false, reason: 'no function selector' });
    expect(decodeBatchedCalls('0xa9059cbb')).toEqual({
      supported: false,
      reason: 'unknown entry point 0xa9059cbb',
    });
    expect(decodeBatchedCalls('0x34fcd5be')).toEqual({ supported: false, reason: 'undecodable calldata' });
    expect(decodeBatchedCalls('0x34fcd5be0000')).toEqual({
      supported: false,
      reason: 'undecodable calldata',
    });
    const shortPacked = encodeFunctionData({
      abi: accountAbi,
      functionName: 'execute',
      args: [mode('00', '00'), forwarder],
    });
    expect(decodeBatchedCalls(shortPacked)).toEqual({
      supported: false,
      reason: expect.stringMatching(/^unsupported execution mode/),
    });
  });
});
