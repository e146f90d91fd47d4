import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { multiTargetBody, POLICY, quoteBody, targetBody, USDC_BASE, WETH } from './quote-body.fixture';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (body: unknown) => validateQuoteRequest(body, POLICY);
const withTarget = (overrides: Record<string, unknown>, tokenOverrides: Record<string, unknown> = {}) =>
  quoteBody({ target: targetBody(overrides, tokenOverrides) });

describe('validateQuoteRequest: target or targets', () => {
  it('requires one of them', () => {
    expect(errorsOf(validate(quoteBody({ target: undefined })))).toEqual([['target_required', 'target']]);
  });

  it('rejects both', () => {
    expect(errorsOf(validate(quoteBody({ targets: multiTargetBody().targets })))).toEqual([
      ['target_conflict', 'targets'],
    ]);
  });

  it('treats a null target as present', () => {
    expect(errorsOf(validate(quoteBody({ target: null })))).toEqual([['invalid_target', 'target']]);
  });
});

describe('validateQuoteRequest: single target', () => {
  it.each([
    ['an array', [targetBody()]],
    ['a string', 'USDC'],
    ['a number', 8453],
  ])('rejects a target that is %s', (_, target) => {
    expect(errorsOf(validate(quoteBody({ target })))).toEqual([['invalid_target', 'target']]);
  });

  it('keeps an explicit id and every optional token field', () => {
    const body = withTarget(
      { id: 'usdc-base', allocationPercent: 100 },
      { symbol: 'USDC', priceUSD: '0.9998' },
    );
    expect(valueOf(validate(body)).target).toStrictEqual({
      id: 'usdc-base',
      chainId: 8453,
      address: USDC_BASE,
      allocationPercent: 100,
      targetToken: { address: USDC_BASE, decimals: 6, symbol: 'USDC', priceUSD: '0.9998' },
    });
  });

  it.each([
    ['id of 1 character', { id: 'a' }],
    ['id of 64 characters', { id: 'i'.repeat(64) }],
    ['allocationPercent 100', { allocationPercent: 100 }],
  ])('accepts an %s', (_, overrides) => {
    expect(errorsOf(validate(withTarget(overrides)))).toEqual([]);
  });

  it.each([
    ['an empty id', { id: '' }, 'invalid_target', 'target.id'],
    ['an id of 65 characters', { id: 'i'.repeat(65) }, 'invalid_target', 'target.id'],
    ['a numeric id', { id: 1 }, 'invalid_target', 'target.id'],
    ['chainId 0', { chainId: 0 }, 'invalid_chain_id', 'target.chainId'],
    ['a string chainId', { chainId: '8453' }, 'invalid_chain_id', 'target.chainId'],
    [
      'allocationPercent 50',
      { allocationPercent: 50 },
      'invalid_allocation_percent',
      'target.allocationPercent',
    ],
    [
      'allocationPercent "100"',
      { allocationPercent: '100' },
      'invalid_allocation_percent',
      'target.allocationPercent',
    ],
    [
      'allocationPercent null',
      { allocationPercent: null },
      'invalid_allocation_percent',
      'target.allocationPercent',
    ],
    ['no targetToken', { targetToken: undefined }, 'invalid_target', 'target.targetToken'],
    ['a null targetToken', { targetToken: null }, 'invalid_target', 'target.targetToken'],
    ['an array targetToken', { targetToken: [] }, 'invalid_target', 'target.targetToken'],
    ['a string targetToken', { targetToken: USDC_BASE }, 'invalid_target', 'target.targetToken'],
  ])('rejects %s', (_, overrides, code, field) => {
    expect(errorsOf(validate(withTarget(overrides)))).toEqual([[code, field]]);
  });

  it.each([
    ['decimals 256', { decimals: 256 }, 'invalid_decimals', 'target.targetToken.decimals'],
    ['missing decimals', { decimals: undefined }, 'invalid_decimals', 'target.targetToken.decimals'],
    ['an empty symbol', { symbol: '' }, 'invalid_symbol', 'target.targetToken.symbol'],
    ['a numeric priceUSD', { priceUSD: 1 }, 'invalid_usd_value', 'target.targetToken.priceUSD'],
    ['a malformed priceUSD', { priceUSD: '$1' }, 'invalid_usd_value', 'target.targetToken.priceUSD'],
  ])('rejects a target token with %s', (_, tokenOverrides, code, field) => {
    expect(errorsOf(validate(withTarget({}, tokenOverrides)))).toEqual([[code, field]]);
  });

  it('accepts target token decimals 255', () => {
    expect(errorsOf(validate(withTarget({}, { decimals: 255 })))).toEqual([]);
  });

  it('rejects a target whose address differs from its token address', () => {
    expect(errorsOf(validate(withTarget({}, { address: WETH })))).toEqual([
      ['target_token_mismatch', 'target.targetToken.address'],
    ]);
  });

  it('compares target and token addresses case-insensitively', () => {
    expect(errorsOf(validate(withTarget({}, { address: USDC_BASE.toLowerCase() })))).toEqual([]);
  });

  it('does not require usdValue on sources', () => {
    expect(errorsOf(validate(quoteBody()))).toEqual([]);
  });
});
