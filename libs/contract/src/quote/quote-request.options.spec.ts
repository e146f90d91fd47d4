import { PROVIDER_NAMES } from '../enums/provider-name';
import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { multiTargetBody, NATIVE, POLICY, quoteBody, sourceBody } from './quote-body.fixture';
import { QUOTE_LIMITS } from './quote-limits';
import { validateQuoteRequest } from './validate-quote-request';

const validate = (overrides: Record<string, unknown>, policy = POLICY) =>
  validateQuoteRequest(quoteBody(overrides), policy);

describe('validateQuoteRequest: slippageBps', () => {
  it('defaults to 50', () => {
    expect(valueOf(validate({})).slippageBps).toBe(50);
  });

  it.each([1, 50, 10000])('accepts %p', (slippageBps) => {
    expect(valueOf(validate({ slippageBps })).slippageBps).toBe(slippageBps);
  });

  it.each([0, 10001, -1, 1.5, '50', null, true])('rejects %p', (slippageBps) => {
    expect(errorsOf(validate({ slippageBps }))).toEqual([['invalid_slippage_bps', 'slippageBps']]);
  });
});

describe('validateQuoteRequest: allowPartial', () => {
  it('defaults to false', () => {
    expect(valueOf(validate({})).allowPartial).toBe(false);
  });

  it.each([true, false])('accepts %p', (allowPartial) => {
    expect(valueOf(validate({ allowPartial })).allowPartial).toBe(allowPartial);
  });

  it.each(['true', 1, 0, null])('rejects %p', (allowPartial) => {
    expect(errorsOf(validate({ allowPartial }))).toEqual([['invalid_allow_partial', 'allowPartial']]);
  });
});

describe('validateQuoteRequest: excludeUneconomicSources', () => {
  it('stays absent when not sent (uneconomic sources are flagged, not left out)', () => {
    expect(valueOf(validate({}))).not.toHaveProperty('excludeUneconomicSources');
  });

  it.each([true, false])('accepts and keeps %p', (excludeUneconomicSources) => {
    expect(valueOf(validate({ excludeUneconomicSources })).excludeUneconomicSources).toBe(
      excludeUneconomicSources,
    );
  });

  it.each(['true', 'false', 1, 0, null, {}, []])('rejects %p', (excludeUneconomicSources) => {
    expect(errorsOf(validate({ excludeUneconomicSources }))).toEqual([
      ['invalid_exclude_uneconomic_sources', 'excludeUneconomicSources'],
    ]);
  });

  it('names the field and the rule in the message', () => {
    const result = validate({ excludeUneconomicSources: 'yes' });
    expect(result.ok ? '' : result.errors[0]?.message).toBe('excludeUneconomicSources must be a boolean');
  });
});

describe('validateQuoteRequest: uneconomicThresholdBps', () => {
  it('stays absent when not sent (the default applies when the quote is priced)', () => {
    expect(valueOf(validate({}))).not.toHaveProperty('uneconomicThresholdBps');
  });

  it('has the documented bounds and default: 1% to 100%, half the value by default', () => {
    expect([
      QUOTE_LIMITS.minUneconomicThresholdBps,
      QUOTE_LIMITS.maxUneconomicThresholdBps,
      QUOTE_LIMITS.defaultUneconomicThresholdBps,
    ]).toEqual([100, 10_000, 5_000]);
  });

  it.each([100, 101, 5000, 9999, 10000])('accepts and keeps %p', (uneconomicThresholdBps) => {
    expect(valueOf(validate({ uneconomicThresholdBps })).uneconomicThresholdBps).toBe(uneconomicThresholdBps);
  });

  it.each([99, 0, -1, 10001, 1_000_000, 150.5, 100.000001, '5000', '1e3', null, true, [5000], { bps: 5000 }])(
    'rejects %p',
    (uneconomicThresholdBps) => {
      expect(errorsOf(validate({ uneconomicThresholdBps }))).toEqual([
        ['invalid_uneconomic_threshold_bps', 'uneconomicThresholdBps'],
      ]);
    },
  );

  it('names the field and the bounds in the message', () => {
    const result = validate({ uneconomicThresholdBps: 99 });
    expect(result.ok ? '' : result.errors[0]?.message).toBe(
      'uneconomicThresholdBps must be an integer from 100 to 10000',
    );
  });

  it('is accepted on its own, without excludeUneconomicSources', () => {
    const value = valueOf(validate({ uneconomicThresholdBps: 2500 }));
    expect(value.uneconomicThresholdBps).toBe(2500);
    expect(value).not.toHaveProperty('excludeUneconomicSources');
  });
});

describe('validateQuoteRequest: the source-economics fields change nothing else', () => {
  const forms = [
    ['single target', quoteBody()],
    [
      'a native source with usdValue',
      quoteBody({ sources: [sourceBody({ address: NATIVE, usdValue: '3.5' })] }),
    ],
    ['multi-target', multiTargetBody({ allowPartial: true, slippageBps: 75 })],
  ] as const;
  const fields = [
    { excludeUneconomicSources: true, uneconomicThresholdBps: 100 },
    { excludeUneconomicSources: false, uneconomicThresholdBps: 10000 },
  ];

  it.each(forms.flatMap(([name, body]) => fields.map((added) => [name, added, body] as const)))(
    '%s with %j: the validated request is the one without them, plus those two',
    (_, added, body) => {
      const without = valueOf(validateQuoteRequest(body, POLICY));
      expect(valueOf(validateQuoteRequest({ ...body, ...added }, POLICY))).toStrictEqual({
        ...without,
        ...added,
      });
    },
  );

  it("refuses both fields at once, each with its own code, and leaves the other fields' errors as they were", () => {
    expect(
      errorsOf(validate({ slippageBps: 0, excludeUneconomicSources: 'yes', uneconomicThresholdBps: 10001 })),
    ).toEqual([
      ['invalid_slippage_bps', 'slippageBps'],
      ['invalid_exclude_uneconomic_sources', 'excludeUneconomicSources'],
      ['invalid_uneconomic_threshold_bps', 'uneconomicThresholdBps'],
    ]);
  });
});

describe('validateQuoteRequest: maxWaitMs', () => {
  it('stays absent when not sent', () => {
    expect(valueOf(validate({}))).not.toHaveProperty('maxWaitMs');
  });

  it.each([1000, 5000, 18000])('accepts %p', (maxWaitMs) => {
    expect(valueOf(validate({ maxWaitMs })).maxWaitMs).toBe(maxWaitMs);
  });

  it.each([999, 18001, 0, 1500.5, '2000', null])('rejects %p', (maxWaitMs) => {
    expect(errorsOf(validate({ maxWaitMs }))).toEqual([['invalid_max_wait_ms', 'maxWaitMs']]);
  });
});

describe('validateQuoteRequest: feeBps', () => {
  it('stays absent when not sent (no markup)', () => {
    expect(valueOf(validate({}))).not.toHaveProperty('feeBps');
  });

  it.each([0, 10, 300])('accepts %p with the default maximum of 300', (feeBps) => {
    expect(valueOf(validate({ feeBps })).feeBps).toBe(feeBps);
  });

  it.each([301, '10', 1.5, -1, null, true])('rejects %p', (feeBps) => {
    expect(errorsOf(validate({ feeBps }))).toEqual([['invalid_fee_bps', 'feeBps']]);
  });

  it('uses the partner maximum, not the default', () => {
    const policy = { ...POLICY, maxFeeBps: 500 };
    expect(errorsOf(validate({ feeBps: 500 }, policy))).toEqual([]);
    expect(errorsOf(validate({ feeBps: 501 }, policy))).toEqual([['invalid_fee_bps', 'feeBps']]);
  });

  it('accepts only 0 when the partner maximum is 0', () => {
    const policy = { ...POLICY, maxFeeBps: 0 };
    expect(errorsOf(validate({ feeBps: 0 }, policy))).toEqual([]);
    expect(errorsOf(validate({ feeBps: 1 }, policy))).toEqual([['invalid_fee_bps', 'feeBps']]);
  });

  it("names the partner's maximum in the message", () => {
    const result = validate({ feeBps: 301 });
    expect(result.ok ? '' : result.errors[0]?.message).toBe(
      "feeBps must not exceed the partner's maximum of 300",
    );
  });
});

describe('validateQuoteRequest: allowedProviders', () => {
  it('stays absent when not sent (every provider enabled for the partner)', () => {
    expect(valueOf(validate({}))).not.toHaveProperty('allowedProviders');
  });

  it.each([
    ['an empty list', [], []],
    ['every provider name', [...PROVIDER_NAMES], [...PROVIDER_NAMES]],
    ['a subset', ['across', 'relay'], ['across', 'relay']],
    ['duplicates, removed', ['relay', 'mayan', 'relay'], ['relay', 'mayan']],
  ])('accepts %s', (_, allowedProviders, expected) => {
    expect(valueOf(validate({ allowedProviders })).allowedProviders).toEqual(expected);
  });

  it.each([
    ['"all"', ['all']],
    ['a differently cased name', ['Relay']],
    ['an unknown name among known ones', ['relay', 'stargate']],
    ['a number entry', [1]],
    ['a bare string', 'relay'],
    ['an object', { relay: true }],
    ['null', null],
  ])('rejects %s', (_, allowedProviders) => {
    expect(errorsOf(validate({ allowedProviders }))).toEqual([
      ['invalid_allowed_providers', 'allowedProviders'],
    ]);
  });
});

describe('validateQuoteRequest: callbackUrl', () => {
  it('accepts and keeps the partner-configured URL', () => {
    expect(valueOf(validate({ callbackUrl: POLICY.callbackUrl })).callbackUrl).toBe(POLICY.callbackUrl);
  });

  it('accepts a configured http: URL', () => {
    const policy = { ...POLICY, callbackUrl: 'http://localhost:8080/hooks' };
    expect(errorsOf(validate({ callbackUrl: 'http://localhost:8080/hooks' }, policy))).toEqual([]);
  });

  it.each([
    ['another https URL', 'https://attacker.example/webhooks'],
    ['the configured URL with a trailing slash', `${POLICY.callbackUrl}/`],
    ['the configured URL in upper case', POLICY.callbackUrl?.toUpperCase()],
    ['an ftp URL', 'ftp://partner.example/webhooks'],
    ['a relative URL', '/webhooks'],
    ['not a URL', 'partner webhooks'],
    ['an empty string', ''],
    ['a number', 1],
    ['null', null],
  ])('rejects %s', (_, callbackUrl) => {
    expect(errorsOf(validate({ callbackUrl }))).toEqual([['invalid_callback_url', 'callbackUrl']]);
  });

  it('rejects any URL when the partner has none configured', () => {
    const policy = { ...POLICY, callbackUrl: null };
    expect(errorsOf(validate({ callbackUrl: 'https://partner.example/webhooks' }, policy))).toEqual([
      ['invalid_callback_url', 'callbackUrl'],
    ]);
  });

  it('rejects a non-http URL even when the partner configured exactly that', () => {
    const policy = { ...POLICY, callbackUrl: 'ftp://partner.example/webhooks' };
    expect(errorsOf(validate({ callbackUrl: 'ftp://partner.example/webhooks' }, policy))).toEqual([
      ['invalid_callback_url', 'callbackUrl'],
    ]);
  });
});
