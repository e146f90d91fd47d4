import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  type Hex,
  parseAbi,
  zeroAddress,
} from 'viem';
import { FEE_RECIPIENT as FEE_RECIPIENT_ANY_CASE, RECIPIENT, USDC } from '../testing/quote-slice.test-helper';
import { acrossAppFeeFromMessage } from './across-app-fee';

// Written out again from across-protocol/frontend api/_multicall-handler.ts (buildMulticallHandlerMessage,
// encodeTransferCalldata, encodeDrainCalldata, encodeMakeCallWithBalanceCalldata), independently of the decoder.
const handlerAbi = parseAbi([
  'function transfer(address to, uint256 value)',
  'function drainLeftoverTokens(address token, address payable destination)',
  'function makeCallWithBalance(address target, bytes callData, uint256 value, (address token, uint256 offset)[] replacement)',
  'function withdraw(uint256 wad)',
]);
// Any address: the handler's own calls (drains, unwrap) are never fees.
const HANDLER: Address = getAddress('0x924a9f036260ddd5808007e1aa95f08ed08aa569');
const FEE_RECIPIENT = getAddress(FEE_RECIPIENT_ANY_CASE.toLowerCase());
const WETH_BASE: Address = '0x4200000000000000000000000000000000000006';

type Call = { target: Address; callData: Hex; value: bigint };
const message = (calls: Call[], fallbackRecipient: Address = zeroAddress): Hex =>
  encodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          {
            name: 'calls',
            type: 'tuple[]',
            components: [
              { name: 'target', type: 'address' },
              { name: 'callData', type: 'bytes' },
              { name: 'value', type: 'uint256' },
            ],
          },
          { name: 'fallbackRecipient', type: 'address' },
        ],
      },
    ],
    [{ calls, fallbackRecipient }],
  );
const call = (target: Address, callData: Hex, value = 0n): Call => ({ target, callData, value });
const transfer = (to: Address, amount: bigint) =>
  encodeFunctionData({ abi: handlerAbi, functionName: 'transfer', args: [to, amount] });
const drain = (token: Address, to: Address) =>
  encodeFunctionData({ abi: handlerAbi, functionName: 'drainLeftoverTokens', args: [token, to] });

describe('acrossAppFeeFromMessage', () => {
  it('an ERC-20 route with an app fee (buildExactInputBridgeTokenMessage): the fee transfer, not the drains', () => {
    const calls = [
      call(USDC.base, transfer(FEE_RECIPIENT, 250_000n)),
      call(HANDLER, drain(USDC.base, RECIPIENT)),
      call(HANDLER, drain(USDC.base, RECIPIENT)),
    ];
    expect(acrossAppFeeFromMessage(message(calls), USDC.base)).toBe(250_000n);
  });

  it('native output: unwrap, then the fee as a plain value call, then drain ETH (calculateAppFee isNative)', () => {
    const unwrap = encodeFunctionData({
      abi: handlerAbi,
      functionName: 'makeCallWithBalance',
      args: [
        WETH_BASE,
        encodeFunctionData({ abi: handlerAbi, functionName: 'withdraw', args: [0n] }),
        0n,
        [{ token: WETH_BASE, offset: 4n }],
      ],
    });
    const calls = [
      call(HANDLER, unwrap),
      call(FEE_RECIPIENT, '0x', 81_000_000_000_000n),
      call(HANDLER, drain(zeroAddress, RECIPIENT)),
      call(HANDLER, drain(WETH_BASE, RECIPIENT)),
    ];
    expect(acrossAppFeeFromMessage(message(calls), WETH_BASE)).toBe(81_000_000_000_000n);
  });

  it('a handler message without fee calls (wrapped native to an EOA) → 0', () => {
    expect(acrossAppFeeFromMessage(message([call(HANDLER, drain(WETH_BASE, RECIPIENT))]), WETH_BASE)).toBe(
      0n,
    );
  });

  it('no message (`0x`: the deposit paid the recipient directly) → 0, whatever the token', () => {
    expect(acrossAppFeeFromMessage('0x', null)).toBe(0n);
  });

  it('a transfer of another token is not a fee out of outputAmount', () => {
    const calls = [call(WETH_BASE, transfer(FEE_RECIPIENT, 5n)), call(HANDLER, drain(USDC.base, RECIPIENT))];
    expect(acrossAppFeeFromMessage(message(calls), USDC.base)).toBe(0n);
  });

  it.each<[string, unknown, Address | null]>([
    ['a message that is not MulticallHandler instructions', '0xdeadbeef', USDC.base],
    ['a message that is not hex', 'null', USDC.base],
    ['no message field', undefined, USDC.base],
    ['an unknown output token', message([call(USDC.base, transfer(FEE_RECIPIENT, 1n))]), null],
  ])('%s → null (unknown)', (_label, raw, token) => {
    expect(acrossAppFeeFromMessage(raw, token)).toBeNull();
  });
});
