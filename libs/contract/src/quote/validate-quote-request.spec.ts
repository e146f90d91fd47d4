import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { POLICY, quoteBody, sourceBody, USDC_BASE, USDC_ETHEREUM, WALLET } from './quote-body.fixture';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (body: unknown) => validateQuoteRequest(body, POLICY);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.values(value).forEach(deepFreeze);
    Object.freeze(value);
  }
  return value;
}

describe('validateQuoteRequest: body', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['an array', [quoteBody()]],
    ['a string', '{}'],
    ['a number', 42],
    ['a boolean', true],
  ])('rejects %s as invalid_request_body', (_, body) => {
    expect(errorsOf(validate(body))).toEqual([['invalid_request_body', '']]);
  });

  it('accepts the minimal single-target body and applies the documented defaults', () => {
    expect(valueOf(validate(quoteBody()))).toStrictEqual({
      walletAddress: WALLET,
      recipient: WALLET,
      sources: [{ chainId: 1, address: USDC_ETHEREUM, amount: '1000000', decimals: 6 }],
      target: {
        id: 't0',
        chainId: 8453,
        address: USDC_BASE,
        allocationPercent: 100,
        targetToken: { address: USDC_BASE, decimals: 6 },
      },
      slippageBps: 50,
      allowPartial: false,
    });
  });

  it('returns plain objects, not DTO instances', () => {
    const value = valueOf(validate(quoteBody()));
    const prototypes = [value, value.sources[0], value.target, value.target?.targetToken].map(
      Object.getPrototypeOf,
    );
    expect(prototypes).toEqual([Object.prototype, Object.prototype, Object.prototype, Object.prototype]);
  });

  it('does not modify the body it validates', () => {
    const body = deepFreeze(quoteBody({ allowedProviders: ['relay', 'relay'] }));
    expect(valueOf(validate(body)).allowedProviders).toEqual(['relay']);
  });
});

describe('validateQuoteRequest: unknown fields', () => {
  it.each([
    ['a top-level typo', { slipageBps: 10 }, 'slipageBps'],
    ['a source field', { sources: [sourceBody({ amout: '1' })] }, 'sources[0].amout'],
    ['a target field', { target: { ...(quoteBody().target as object), logoUrl: 'x' } }, 'target.logoUrl'],
    [
      'a target token field',
      {
        target: {
          chainId: 1,
          address: USDC_BASE,
          targetToken: { address: USDC_BASE, decimals: 6, chainId: 1 },
        },
      },
      'target.targetToken.chainId',
    ],
    ['a key that is not an identifier', { 'a.b': 1 }, '["a.b"]'],
  ])('rejects %s as unknown_field', (_, overrides, field) => {
    expect(errorsOf(validate(quoteBody(overrides)))).toEqual([['unknown_field', field]]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'isPrototypeOf', '__defineGetter__'])(
    'rejects the key %s at the top level and in a nested object',
    (key) => {
      const body = JSON.parse(
        `{"walletAddress":"${WALLET}","${key}":{"constructor":{"x":1}},` +
          `"sources":[{"chainId":1,"address":"${USDC_ETHEREUM}","amount":"1","decimals":6,"${key}":1}],` +
          `"target":{"chainId":1,"address":"${USDC_BASE}","targetToken":{"address":"${USDC_BASE}","decimals":6}}}`,
      ) as unknown;
      expect(errorsOf(validate(body))).toEqual([
        ['unknown_field', key],
        ['unknown_field', `sources[0].${key}`],
      ]);
    },
  );
});

describe('validateQuoteRequest: error order', () => {
  it('reports every error, unknown fields first, then in the documented field order', () => {
    const body = {
      callbackUrl: 'https://elsewhere.example/',
      slippageBps: 0,
      sources: [sourceBody({ amount: '0' }), sourceBody({ chainId: 10, decimals: 256 })],
      walletAddress: 'nope',
      recipient: 'nope',
      feeBps: 301,
      maxWaitMs: 999,
      allowPartial: 'yes',
      allowedProviders: ['all'],
      uneconomicThresholdBps: 99,
      excludeUneconomicSources: 'yes',
      extra: true,
    };
    expect(errorsOf(validate(body))).toEqual([
      ['unknown_field', 'extra'],
      ['invalid_wallet_address', 'walletAddress'],
      ['invalid_recipient', 'recipient'],
      ['invalid_amount', 'sources[0].amount'],
      ['invalid_decimals', 'sources[1].decimals'],
      ['target_required', 'target'],
      ['invalid_slippage_bps', 'slippageBps'],
      ['invalid_allow_partial', 'allowPartial'],
      ['invalid_max_wait_ms', 'maxWaitMs'],
      ['invalid_fee_bps', 'feeBps'],
      ['invalid_allowed_providers', 'allowedProviders'],
      ['invalid_callback_url', 'callbackUrl'],
      ['invalid_exclude_uneconomic_sources', 'excludeUneconomicSources'],
      ['invalid_uneconomic_threshold_bps', 'uneconomicThresholdBps'],
    ]);
  });

  it('gives each error a message that names the field and states the rule', () => {
    const result = validate(quoteBody({ sources: [sourceBody({ amount: '1.5' })] }));
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          code: 'invalid_amount',
          field: 'sources[0].amount',
          message: expect.stringMatching(/^sources\[0\]\.amount must be a positive base-10 integer string/),
        },
      ],
    });
  });
});
