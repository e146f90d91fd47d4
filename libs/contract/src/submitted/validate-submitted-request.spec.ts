import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { validateSubmittedRequest } from './validate-submitted-request';

const HASH_A = `0x${'a'.repeat(64)}`;
const HASH_B = `0x${'b'.repeat(64)}`;
const SIGNATURE = `0x${'1f'.repeat(65)}`;

const chainResult = (overrides: Record<string, unknown> = {}) => ({
  chainId: 1,
  txHashes: [HASH_A],
  ...overrides,
});
const body = (overrides: Record<string, unknown> = {}) => ({ chainResults: [chainResult()], ...overrides });
const withResult = (overrides: Record<string, unknown>) => body({ chainResults: [chainResult(overrides)] });
const hashes = (count: number) =>
  Array.from({ length: count }, (_, i) => `0x${i.toString(16).padStart(64, '0')}`);
const results = (count: number) => Array.from({ length: count }, (_, i) => chainResult({ chainId: i + 1 }));

describe('validateSubmittedRequest: body', () => {
  it.each([
    ['absent', undefined],
    ['null', null],
    ['an array', [chainResult()]],
    ['a string', 'x'],
  ])('rejects a body that is %s', (_, input) => {
    expect(errorsOf(validateSubmittedRequest(input))).toEqual([['invalid_request_body', '']]);
  });

  it('applies the defaults', () => {
    expect(
      valueOf(validateSubmittedRequest({ chainResults: [{ chainId: 10, bundleId: 'bundle-1' }] })),
    ).toStrictEqual({
      submittedAt: null,
      walletAuthorization: null,
      chainResults: [{ chainId: 10, bundleId: 'bundle-1', txHashes: [], quoteResults: [] }],
    });
  });

  it('keeps every field it was given', () => {
    const quoteResults = [{ quoteIndex: 0, anything: { nested: [1] } }];
    const input = {
      submittedAt: 1712345678901,
      walletAuthorization: { signature: SIGNATURE },
      chainResults: [{ chainId: 1, bundleId: 'b', txHashes: [HASH_A], quoteResults }],
    };
    expect(valueOf(validateSubmittedRequest(input))).toStrictEqual(input);
  });

  it.each([
    ['a top-level typo', { chainResult: [] }, 'chainResult'],
    ['a chain result field', { chainResults: [chainResult({ txHash: HASH_A })] }, 'chainResults[0].txHash'],
    [
      'a wallet authorization field',
      { walletAuthorization: { signature: SIGNATURE, v: 27 } },
      'walletAuthorization.v',
    ],
  ])('rejects %s as unknown_field', (_, overrides, field) => {
    expect(errorsOf(validateSubmittedRequest(body(overrides)))).toEqual([['unknown_field', field]]);
  });

  it('reports errors in field order', () => {
    const input = { chainResults: [], walletAuthorization: 'sig', submittedAt: -1 };
    expect(errorsOf(validateSubmittedRequest(input))).toEqual([
      ['invalid_submitted_at', 'submittedAt'],
      ['invalid_wallet_authorization', 'walletAuthorization'],
      ['invalid_chain_results', 'chainResults'],
    ]);
  });
});

describe('validateSubmittedRequest: chainResults', () => {
  it.each([1, 16])('accepts %i chain results', (count) => {
    expect(
      valueOf(validateSubmittedRequest(body({ chainResults: results(count) }))).chainResults,
    ).toHaveLength(count);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['an object', chainResult()],
    ['empty', []],
    ['17 entries', results(17)],
    ['a number entry', [1]],
    ['an array entry', [[chainResult()]]],
  ])('rejects chainResults that are %s', (_, chainResults) => {
    expect(errorsOf(validateSubmittedRequest(body({ chainResults })))).toEqual([
      ['invalid_chain_results', 'chainResults'],
    ]);
  });

  it('rejects the later of two results for the same chain', () => {
    const chainResults = [chainResult(), chainResult({ chainId: 10 }), chainResult({ txHashes: [HASH_B] })];
    expect(errorsOf(validateSubmittedRequest(body({ chainResults })))).toEqual([
      ['invalid_chain_results', 'chainResults[2]'],
    ]);
  });

  it.each([
    ['neither a bundle id nor hashes', { txHashes: undefined }],
    ['a null bundle id and no hashes', { bundleId: null, txHashes: [] }],
  ])('rejects a result with %s', (_, overrides) => {
    expect(errorsOf(validateSubmittedRequest(withResult(overrides)))).toEqual([
      ['invalid_chain_results', 'chainResults[0]'],
    ]);
  });

  it.each([
    ['a bundle id only', { bundleId: 'b', txHashes: undefined }],
    ['hashes only', { bundleId: null }],
    ['both', { bundleId: 'b' }],
  ])('accepts a result with %s', (_, overrides) => {
    expect(errorsOf(validateSubmittedRequest(withResult(overrides)))).toEqual([]);
  });

  it.each([0, -1, '1', null, undefined, 1.5])('rejects chainId %p', (chainId) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ chainId })))).toEqual([
      ['invalid_chain_id', 'chainResults[0].chainId'],
    ]);
  });
});

describe('validateSubmittedRequest: bundleId', () => {
  it.each([1, 255])('accepts %i characters', (length) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ bundleId: 'b'.repeat(length) })))).toEqual([]);
  });

  it.each([
    ['256 characters', 'b'.repeat(256)],
    ['an empty string', ''],
    ['a number', 1],
    ['an object', {}],
  ])('rejects %s', (_, bundleId) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ bundleId })))).toEqual([
      ['invalid_bundle_id', 'chainResults[0].bundleId'],
    ]);
  });
});

describe('validateSubmittedRequest: txHashes', () => {
  it.each([1, 64])('accepts %i hashes', (count) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ txHashes: hashes(count) })))).toEqual([]);
  });

  it('lower-cases and de-duplicates hashes', () => {
    const value = valueOf(
      validateSubmittedRequest(
        withResult({ txHashes: [HASH_A, HASH_A.toUpperCase().replace('0X', '0x'), HASH_B] }),
      ),
    );
    expect(value.chainResults[0]?.txHashes).toEqual([HASH_A, HASH_B]);
  });

  it.each([
    ['65 hashes', hashes(65)],
    ['63 hex characters', [`0x${'a'.repeat(63)}`]],
    ['65 hex characters', [`0x${'a'.repeat(65)}`]],
    ['no 0x prefix', ['a'.repeat(64)]],
    ['a non-hex character', [`0x${'g'.repeat(64)}`]],
    ['a number entry', [1]],
    ['a bare string', HASH_A],
    ['null', null],
  ])('rejects %s', (_, txHashes) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ txHashes })))).toEqual([
      ['invalid_tx_hashes', 'chainResults[0].txHashes'],
    ]);
  });
});

describe('validateSubmittedRequest: quoteResults', () => {
  it('passes opaque items through as sent, whatever their keys', () => {
    const quoteResults = JSON.parse('[{"quoteIndex":0,"constructor":{"a":1},"toString":2}]') as unknown[];
    const value = valueOf(validateSubmittedRequest(withResult({ quoteResults })));
    expect(value.chainResults[0]?.quoteResults).toBe(quoteResults);
  });

  it('accepts 64 items', () => {
    expect(
      errorsOf(
        validateSubmittedRequest(withResult({ quoteResults: Array.from({ length: 64 }, () => ({})) })),
      ),
    ).toEqual([]);
  });

  it.each([
    ['65 items', Array.from({ length: 65 }, () => ({}))],
    ['a number item', [1]],
    ['an array item', [[]]],
    ['a null item', [null]],
    ['an object', {}],
    ['null', null],
  ])('rejects %s', (_, quoteResults) => {
    expect(errorsOf(validateSubmittedRequest(withResult({ quoteResults })))).toEqual([
      ['invalid_quote_results', 'chainResults[0].quoteResults'],
    ]);
  });
});

describe('validateSubmittedRequest: submittedAt', () => {
  it.each([0, 1712345678901, 1712345678901.5, null])('accepts %p', (submittedAt) => {
    expect(valueOf(validateSubmittedRequest(body({ submittedAt }))).submittedAt).toBe(submittedAt);
  });

  it.each([-1, '1712345678901', true, {}])('rejects %p', (submittedAt) => {
    expect(errorsOf(validateSubmittedRequest(body({ submittedAt })))).toEqual([
      ['invalid_submitted_at', 'submittedAt'],
    ]);
  });
});

describe('validateSubmittedRequest: walletAuthorization', () => {
  it.each([
    ['null', null, null],
    ['130 hex characters', { signature: SIGNATURE }, { signature: SIGNATURE }],
    [
      'upper-case hex',
      { signature: SIGNATURE.toUpperCase().replace('0X', '0x') },
      { signature: SIGNATURE.toUpperCase().replace('0X', '0x') },
    ],
  ])('accepts %s', (_, walletAuthorization, expected) => {
    expect(valueOf(validateSubmittedRequest(body({ walletAuthorization }))).walletAuthorization).toEqual(
      expected,
    );
  });

  it.each([
    ['129 hex characters', { signature: `0x${'a'.repeat(129)}` }, 'walletAuthorization.signature'],
    ['131 hex characters', { signature: `0x${'a'.repeat(131)}` }, 'walletAuthorization.signature'],
    ['no 0x prefix', { signature: 'a'.repeat(130) }, 'walletAuthorization.signature'],
    ['no signature', {}, 'walletAuthorization.signature'],
    ['a null signature', { signature: null }, 'walletAuthorization.signature'],
    ['a bare string', SIGNATURE, 'walletAuthorization'],
    ['an array', [SIGNATURE], 'walletAuthorization'],
  ])('rejects %s', (_, walletAuthorization, field) => {
    expect(errorsOf(validateSubmittedRequest(body({ walletAuthorization })))).toEqual([
      ['invalid_wallet_authorization', field],
    ]);
  });
});
