import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { multiTargetBody, POLICY, sourceBody, targetBody, USDC_BASE, WETH } from './quote-body.fixture';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (body: unknown) => validateQuoteRequest(body, POLICY);
const withPercents = (...percents: (number | undefined)[]) =>
  multiTargetBody({ targets: percents.map((allocationPercent) => targetBody({ allocationPercent })) });

describe('validateQuoteRequest: targets', () => {
  it('accepts the multi-target form and assigns t<index> ids', () => {
    const value = valueOf(validate(multiTargetBody()));
    expect(value.target).toBeUndefined();
    expect(value.targets).toStrictEqual([
      {
        id: 't0',
        chainId: 8453,
        address: USDC_BASE,
        allocationPercent: 60,
        targetToken: { address: USDC_BASE, decimals: 6 },
      },
      {
        id: 't1',
        chainId: 1,
        address: WETH,
        allocationPercent: 40,
        targetToken: { address: WETH, decimals: 18 },
      },
    ]);
  });

  it('keeps explicit ids', () => {
    const targets = [targetBody({ id: 'a', allocationPercent: 50 }), targetBody({ allocationPercent: 50 })];
    expect(valueOf(validate(multiTargetBody({ targets }))).targets?.map((target) => target.id)).toEqual([
      'a',
      't1',
    ]);
  });

  it.each([
    ['empty', []],
    ['an object', targetBody({ allocationPercent: 100 })],
    ['null', null],
    ['a number entry', [1]],
    ['an array entry', [[targetBody({ allocationPercent: 100 })]]],
  ])('rejects targets that are %s as invalid_target', (_, targets) => {
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([['invalid_target', 'targets']]);
  });

  it('rejects a duplicated explicit id', () => {
    const targets = [
      targetBody({ id: 'x', allocationPercent: 50 }),
      targetBody({ id: 'x', allocationPercent: 50 }),
    ];
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([['invalid_target', 'targets[1].id']]);
  });

  it('rejects an explicit id that collides with a default id', () => {
    const targets = [targetBody({ id: 't1', allocationPercent: 50 }), targetBody({ allocationPercent: 50 })];
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([['invalid_target', 'targets[1].id']]);
  });

  it('rejects a target whose address differs from its token address', () => {
    const targets = [
      targetBody({ allocationPercent: 50 }),
      targetBody({ allocationPercent: 50 }, { address: WETH }),
    ];
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([
      ['target_token_mismatch', 'targets[1].targetToken.address'],
    ]);
  });

  it('reports nested target errors with their index', () => {
    const targets = [
      targetBody({ allocationPercent: 50 }),
      targetBody({ allocationPercent: 50 }, { decimals: 256 }),
    ];
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([
      ['invalid_decimals', 'targets[1].targetToken.decimals'],
    ]);
  });
});

describe('validateQuoteRequest: allocationPercent in the multi-target form', () => {
  it.each([
    ['100', [100]],
    ['50 + 50', [50, 50]],
    ['33.33 + 33.33 + 33.34', [33.33, 33.33, 33.34]],
    ['0.1 + 0.2 + 99.7', [0.1, 0.2, 99.7]],
  ])('accepts shares summing to 100: %s', (_, percents) => {
    expect(errorsOf(validate(withPercents(...percents)))).toEqual([]);
  });

  it.each([
    ['99.99', [50, 49.99]],
    ['100.01', [50, 50.01]],
    ['a single 99', [99]],
  ])('rejects shares summing to %s', (_, percents) => {
    expect(errorsOf(validate(withPercents(...percents)))).toEqual([
      ['invalid_allocation_percent', 'targets'],
    ]);
  });

  it.each([
    ['missing', undefined],
    ['0', 0],
    ['negative', -10],
    ['above 100', 100.5],
  ])('rejects a share that is %s (and skips the sum)', (_, percent) => {
    expect(errorsOf(validate(withPercents(50, percent)))).toEqual([
      ['invalid_allocation_percent', 'targets[1].allocationPercent'],
    ]);
  });

  it('rejects a non-numeric share with the same code', () => {
    const targets = [targetBody({ allocationPercent: 50 }), targetBody({ allocationPercent: '50' })];
    expect(errorsOf(validate(multiTargetBody({ targets })))).toEqual([
      ['invalid_allocation_percent', 'targets[1].allocationPercent'],
    ]);
  });
});

describe('validateQuoteRequest: usdValue in the multi-target form', () => {
  const withSources = (...usdValues: unknown[]) =>
    multiTargetBody({
      sources: usdValues.map((usdValue, index) => sourceBody({ chainId: index + 1, usdValue })),
    });

  it('accepts positive values', () => {
    expect(errorsOf(validate(withSources('0.01', '1000')))).toEqual([]);
  });

  it('requires a value on every source', () => {
    expect(errorsOf(validate(withSources('1', undefined, undefined)))).toEqual([
      ['usd_value_required', 'sources[1].usdValue'],
      ['usd_value_required', 'sources[2].usdValue'],
    ]);
  });

  it.each(['0', '0.00'])('rejects the zero value %s', (usdValue) => {
    expect(errorsOf(validate(withSources('1', usdValue)))).toEqual([
      ['invalid_usd_value', 'sources[1].usdValue'],
    ]);
  });

  it('reports a malformed value once', () => {
    expect(errorsOf(validate(withSources('abc')))).toEqual([['invalid_usd_value', 'sources[0].usdValue']]);
  });
});

describe('validateQuoteRequest: inputs that cannot cost more than they are worth (review M1, M2)', () => {
  const codes = (body: unknown) => errorsOf(validate(body)).map(([code]) => code);

  it('takes up to 10 targets and refuses 11 as invalid_target', () => {
    expect(validate(withPercents(10, 10, 10, 10, 10, 10, 10, 10, 10, 10)).ok).toBe(true);
    expect(codes(withPercents(10, 10, 10, 10, 10, 10, 10, 10, 10, 5, 5))).toEqual(['invalid_target']);
  });

  it.each([
    ['30 integer digits', '9'.repeat(30), true],
    ['18 fraction digits', `1.${'5'.repeat(18)}`, true],
    ['31 integer digits', `1${'0'.repeat(30)}`, false],
    ['19 fraction digits', `1.${'5'.repeat(19)}`, false],
    ['250 000 digits', `1${'0'.repeat(250_000)}`, false],
  ])('a usdValue of %s: accepted %s', (_label, usdValue, accepted) => {
    const body = multiTargetBody({ sources: [sourceBody({ usdValue })] });
    expect(codes(body)).toEqual(accepted ? [] : ['invalid_usd_value']);
  });
});
