import { PROVIDER_NAMES } from '../enums/provider-name';
import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { POLICY, quoteBody } from './quote-body.fixture';
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
