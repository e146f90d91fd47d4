import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { distinctSources, NATIVE, POLICY, quoteBody, sourceBody, USDC_ETHEREUM } from './quote-body.fixture';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (body: unknown) => validateQuoteRequest(body, POLICY);
const withSource = (overrides: Record<string, unknown>) => quoteBody({ sources: [sourceBody(overrides)] });
const UINT256_MAX = (2n ** 256n - 1n).toString();

describe('validateQuoteRequest: sources', () => {
  it.each([1, 50])('accepts %i sources', (count) => {
    expect(valueOf(validate(quoteBody({ sources: distinctSources(count) }))).sources).toHaveLength(count);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['an object', sourceBody()],
    ['a string', 'USDC'],
    ['empty', []],
    ['51 entries', distinctSources(51)],
    ['a number entry', [sourceBody(), 1]],
    ['an array entry', [[sourceBody()]]],
    ['a null entry', [null]],
  ])('rejects sources that are %s as invalid_sources', (_, sources) => {
    expect(errorsOf(validate(quoteBody({ sources })))).toEqual([['invalid_sources', 'sources']]);
  });

  it('keeps the optional fields it was given', () => {
    const value = valueOf(validate(withSource({ symbol: 'USDC', usdValue: '1.00' })));
    expect(value.sources[0]).toStrictEqual({
      chainId: 1,
      address: USDC_ETHEREUM,
      amount: '1000000',
      decimals: 6,
      symbol: 'USDC',
      usdValue: '1.00',
    });
  });
});

describe('validateQuoteRequest: duplicate sources', () => {
  it('rejects the later of two sources naming the same token, addresses compared case-insensitively', () => {
    const sources = [
      sourceBody({ chainId: 10 }),
      sourceBody(),
      sourceBody({ address: USDC_ETHEREUM.toLowerCase() }),
    ];
    expect(errorsOf(validate(quoteBody({ sources })))).toEqual([['duplicate_source', 'sources[2]']]);
  });

  it('reports every later duplicate', () => {
    const sources = [sourceBody(), sourceBody(), sourceBody({ address: NATIVE }), sourceBody()];
    expect(errorsOf(validate(quoteBody({ sources })))).toEqual([
      ['duplicate_source', 'sources[1]'],
      ['duplicate_source', 'sources[3]'],
    ]);
  });

  it.each([
    ['chains', [sourceBody({ chainId: 1 }), sourceBody({ chainId: 10 })]],
    ['addresses', [sourceBody(), sourceBody({ address: NATIVE })]],
  ])('accepts the same amount on different %s', (_, sources) => {
    expect(errorsOf(validate(quoteBody({ sources })))).toEqual([]);
  });
});

describe('validateQuoteRequest: source fields', () => {
  it.each([1, 137, Number.MAX_SAFE_INTEGER])('accepts chainId %p', (chainId) => {
    expect(errorsOf(validate(withSource({ chainId })))).toEqual([]);
  });

  it.each([0, -1, 1.5, '1', null, undefined, Number.MAX_SAFE_INTEGER + 1, true])(
    'rejects chainId %p',
    (chainId) => {
      expect(errorsOf(validate(withSource({ chainId })))).toEqual([
        ['invalid_chain_id', 'sources[0].chainId'],
      ]);
    },
  );

  it.each(['1', '1000000000000000000', UINT256_MAX])('accepts amount %s', (amount) => {
    expect(valueOf(validate(withSource({ amount }))).sources[0]?.amount).toBe(amount);
  });

  it.each([
    ['2^256', (2n ** 256n).toString()],
    ['79 digits', '1'.repeat(79)],
    ['zero', '0'],
    ['a leading zero', '01'],
    ['a minus sign', '-1'],
    ['a plus sign', '+1'],
    ['a decimal point', '1.0'],
    ['an exponent', '1e18'],
    ['hex', '0x10'],
    ['a leading space', ' 1'],
    ['a trailing newline', '1\n'],
    ['an empty string', ''],
    ['a JSON number', 1000000],
    ['null', null],
    ['absence', undefined],
  ])('rejects an amount with %s', (_, amount) => {
    expect(errorsOf(validate(withSource({ amount })))).toEqual([['invalid_amount', 'sources[0].amount']]);
  });

  it.each([0, 6, 18, 255])('accepts decimals %p', (decimals) => {
    expect(errorsOf(validate(withSource({ decimals })))).toEqual([]);
  });

  it.each([256, -1, 1.5, '6', null, undefined])('rejects decimals %p', (decimals) => {
    expect(errorsOf(validate(withSource({ decimals })))).toEqual([
      ['invalid_decimals', 'sources[0].decimals'],
    ]);
  });

  it.each([
    ['one character', 'X'],
    ['64 characters', 'S'.repeat(64)],
    ['64 emoji (128 UTF-16 units)', '🪙'.repeat(64)],
  ])('accepts a symbol of %s', (_, symbol) => {
    expect(valueOf(validate(withSource({ symbol }))).sources[0]?.symbol).toBe(symbol);
  });

  it.each([
    ['65 characters', 'S'.repeat(65)],
    ['no characters', ''],
    ['many variation selectors', `${'\uFE0F'.repeat(1000)}A`],
    ['a number', 1],
    ['null', null],
  ])('rejects a symbol of %s', (_, symbol) => {
    expect(errorsOf(validate(withSource({ symbol })))).toEqual([['invalid_symbol', 'sources[0].symbol']]);
  });

  it.each(['0', '1250', '1250.5', '0.000001'])('accepts usdValue %s', (usdValue) => {
    expect(valueOf(validate(withSource({ usdValue }))).sources[0]?.usdValue).toBe(usdValue);
  });

  it.each(['01', '1.', '.5', '-1', '1e3', '1,5', ' 1', '', 12.5, null])('rejects usdValue %p', (usdValue) => {
    expect(errorsOf(validate(withSource({ usdValue })))).toEqual([
      ['invalid_usd_value', 'sources[0].usdValue'],
    ]);
  });

  it('reports the field errors of every source, in index order', () => {
    const sources = [
      sourceBody({ chainId: 0 }),
      sourceBody({ chainId: 2 }),
      sourceBody({ chainId: 3, amount: 5 }),
    ];
    expect(errorsOf(validate(quoteBody({ sources })))).toEqual([
      ['invalid_chain_id', 'sources[0].chainId'],
      ['invalid_amount', 'sources[2].amount'],
    ]);
  });
});
