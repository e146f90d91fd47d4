import { type Hex, hexToBytes, pad, toHex } from 'viem';

export interface PlainCall {
  chainId: number;
  to: string;
  value: string;
  data: string;
}

/**
 * `abi.encode((uint256,address,uint256,bytes)[])` written out word by word, so the tests check executionCommitment
 * against the ABI layout itself rather than against the viem call it makes. Returns the 32-byte words.
 *
 *   word 0            offset of the array (0x20: it is the only parameter)
 *   word 1            element count n
 *   words 2 .. n+1    offset of each element, counted from word 2 (elements are dynamic: they hold `bytes`)
 *   then per element  chainId, to, value, offset of data within the element (0x80), data length, data padded
 */
export function encodeCallsByHand(calls: PlainCall[]): Hex[] {
  const elements = calls.map(encodeElement);
  const heads: Hex[] = [];
  let offset = 32 * calls.length;
  for (const element of elements) {
    heads.push(word(BigInt(offset)));
    offset += 32 * element.length;
  }
  return [word(32n), word(BigInt(calls.length)), ...heads, ...elements.flat()];
}

function encodeElement(call: PlainCall): Hex[] {
  const bytes = hexToBytes(call.data as Hex);
  const padded = Math.ceil(bytes.length / 32) * 32;
  const dataWords = padded === 0 ? [] : chunk(pad(call.data as Hex, { size: padded, dir: 'right' }));
  return [
    word(BigInt(call.chainId)),
    pad(call.to.toLowerCase() as Hex, { size: 32 }),
    word(BigInt(call.value)),
    word(0x80n),
    word(BigInt(bytes.length)),
    ...dataWords,
  ];
}

function word(n: bigint): Hex {
  return pad(toHex(n), { size: 32 });
}

function chunk(hex: Hex): Hex[] {
  const body = hex.slice(2);
  const words: Hex[] = [];
  for (let i = 0; i < body.length; i += 64) words.push(`0x${body.slice(i, i + 64)}`);
  return words;
}
