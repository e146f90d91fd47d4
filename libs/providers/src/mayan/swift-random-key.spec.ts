import { type Hex } from 'viem';
import { swiftRandomKey } from './swift-random-key';

const RANDOM: Hex = '0x5eed5eed5eed5eed5eed5eed5eed5eed0123456789abcdef0123456789abcdef';
const HEAD = '5eed5eed5eed5eed5eed5eed5eed5eed';

// swap-sdk src/utils.ts createSwiftRandomKey: zeroPadValue(Buffer.from(id, 'hex'), 16) ‖ (memo | 16 random bytes),
// 32 random bytes when any step throws.
describe('swiftRandomKey (swap-sdk createSwiftRandomKey)', () => {
  it.each<[string, string | null, string | null, Hex]>([
    [
      'a 16-byte hex id',
      'b9a5d7e24f8e4e0ba3d07fd5d2a1c002',
      null,
      `0xb9a5d7e24f8e4e0ba3d07fd5d2a1c002${HEAD}`,
    ],
    [
      'a 0x-prefixed id',
      '0xb9a5d7e24f8e4e0ba3d07fd5d2a1c002',
      null,
      `0xb9a5d7e24f8e4e0ba3d07fd5d2a1c002${HEAD}`,
    ],
    ['a short id, left-padded', '0xabcd', null, `0x${'00'.repeat(14)}abcd${HEAD}`],
    [
      'a UUID: Buffer reads up to the first dash',
      'b9a5d7e2-4f8e-4e0b-a3d0-7fd5d2a1c002',
      null,
      `0x${'00'.repeat(12)}b9a5d7e2${HEAD}`,
    ],
    ['an odd digit count drops the last nibble', 'abc', null, `0x${'00'.repeat(15)}ab${HEAD}`],
    [
      'a memo instead of the random half',
      '0xb9a5d7e24f8e4e0ba3d07fd5d2a1c002',
      '0x0102',
      `0xb9a5d7e24f8e4e0ba3d07fd5d2a1c002${'00'.repeat(14)}0102`,
    ],
    ['no id: all random', null, null, RANDOM],
    ['an id over 16 bytes: all random', `0x${'11'.repeat(17)}`, null, RANDOM],
    ['a memo over 16 bytes: all random', '0xabcd', `0x${'22'.repeat(17)}`, RANDOM],
  ])('%s', (_label, quoteId, memoHex, expected) => {
    expect(swiftRandomKey({ quoteId, memoHex }, RANDOM)).toBe(expected);
  });

  it('matches the SDK byte for byte on its own steps for a Node Buffer', () => {
    const id = 'b9a5d7e2-4f8e';
    const idBuf = Buffer.concat([Buffer.alloc(16 - Buffer.from(id, 'hex').length), Buffer.from(id, 'hex')]);
    const expected = `0x${Buffer.concat([idBuf, Buffer.from(RANDOM.slice(2), 'hex').subarray(0, 16)]).toString('hex')}`;
    expect(swiftRandomKey({ quoteId: id, memoHex: null }, RANDOM)).toBe(expected);
  });
});
