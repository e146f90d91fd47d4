import { atomicSupported } from './atomic-supported';

const supported = { atomic: { status: 'supported' } };

describe('atomicSupported', () => {
  it.each([
    ['atomic supported for the chain', { '0x1': supported }, 1],
    ['atomic ready for the chain', { '0x2105': { atomic: { status: 'ready' } } }, 8453],
    ['arbitrum in lower hex', { '0xa4b1': supported }, 42161],
    ['upper hex digits', { '0xA4B1': supported }, 42161],
    ['an upper-case prefix', { '0XA4B1': supported }, 42161],
    ['leading zeros', { '0x0001': supported }, 1],
    ['0x0, every chain', { '0x0': supported }, 8453],
    ['0x00, every chain', { '0x00': supported }, 42161],
    ['the older atomicBatch', { '0x1': { atomicBatch: { supported: true } } }, 1],
    ['beside other capabilities', { '0x1': { ...supported, paymasterService: { supported: false } } }, 1],
    ['beside entries for other chains', { '0x2105': {}, '0xa4b1': 'junk', '0x1': supported }, 1],
    ['0x0 when the chain entry says nothing of atomicity', { '0x0': supported, '0x1': { x: {} } }, 1],
  ])('supports %s', (_, capabilities, chainId) => {
    expect(atomicSupported(capabilities, chainId)).toBe(true);
  });

  it.each([
    ['undefined', undefined, 1],
    ['null', null, 1],
    ['{}', {}, 1],
    ['an array', [{ '0x1': supported }], 1],
    ['a string', '{"0x1":{"atomic":{"status":"supported"}}}', 1],
    ['a number', 1, 1],
    ['atomic unsupported', { '0x1': { atomic: { status: 'unsupported' } } }, 1],
    ['an unknown atomic status', { '0x1': { atomic: { status: 'Supported' } } }, 1],
    ['atomic without status', { '0x1': { atomic: {} } }, 1],
    ['atomic as a string', { '0x1': { atomic: 'supported' } }, 1],
    ['atomic as an array', { '0x1': { atomic: ['supported'] } }, 1],
    ['atomic null', { '0x1': { atomic: null } }, 1],
    ['atomicBatch false', { '0x1': { atomicBatch: { supported: false } } }, 1],
    ['atomicBatch "true"', { '0x1': { atomicBatch: { supported: 'true' } } }, 1],
    ['atomicBatch without supported', { '0x1': { atomicBatch: {} } }, 1],
    [
      'atomic unsupported beside atomicBatch true',
      { '0x1': { atomic: { status: 'unsupported' }, atomicBatch: { supported: true } } },
      1,
    ],
    ['a capability for another chain only', { '0x2105': supported }, 1],
    ['a decimal key', { '1': supported }, 1],
    ['a key that is not hex', { '0x1g': supported, chain1: supported }, 1],
    ['a string entry', { '0x1': 'supported' }, 1],
    ['a null entry', { '0x1': null }, 1],
    ['an array entry', { '0x1': [supported] }, 1],
    ['an entry with no atomic capability', { '0x1': { paymasterService: { supported: true } } }, 1],
    [
      'the chain entry denying what 0x0 claims',
      { '0x0': supported, '0x1': { atomic: { status: 'unsupported' } } },
      1,
    ],
    ['a malformed chain entry beside 0x0', { '0x0': supported, '0x1': 'junk' }, 1],
    [
      'two spellings of the chain disagreeing',
      { '0x1': supported, '0x01': { atomicBatch: { supported: false } } },
      1,
    ],
    ['an inherited atomic capability', { '0x1': Object.create(supported) as unknown }, 1],
  ])('does not support %s', (_, capabilities, chainId) => {
    expect(atomicSupported(capabilities, chainId)).toBe(false);
  });

  it('reads capabilities parsed from JSON, __proto__ keys included', () => {
    const capabilities = JSON.parse(
      '{"__proto__":{"0x1":{"atomic":{"status":"supported"}}},"0x2105":{"atomic":{"status":"supported"}}}',
    ) as unknown;
    expect([atomicSupported(capabilities, 1), atomicSupported(capabilities, 8453)]).toEqual([false, true]);
  });
});
