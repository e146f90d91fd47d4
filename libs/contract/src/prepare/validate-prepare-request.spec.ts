import { errorsOf, valueOf } from '../validation/validation-result.fixture';
import { validatePrepareRequest } from './validate-prepare-request';
import { type PartnerRequestPolicy } from '../validation/validation-result';

const POLICY: PartnerRequestPolicy = { maxFeeBps: 300, callbackUrl: 'https://partner.example/webhooks' };
const validate = (body: unknown, policy = POLICY) => validatePrepareRequest(body, policy);

describe('validatePrepareRequest: body', () => {
  it.each([
    ['absent', undefined],
    ['null', null],
    ['an empty object', {}],
  ])('accepts a body that is %s as {}', (_, body) => {
    expect(valueOf(validate(body))).toStrictEqual({});
  });

  it.each([
    ['an array', []],
    ['a string', 'x'],
    ['a number', 1],
    ['a boolean', false],
  ])('rejects a body that is %s', (_, body) => {
    expect(errorsOf(validate(body))).toEqual([['invalid_request_body', '']]);
  });

  it.each([
    ['a top-level typo', { walletcontext: {} }, 'walletcontext'],
    ['a walletContext field', { walletContext: { connector: 'x' } }, 'walletContext.connector'],
    [
      'an inherited name',
      JSON.parse('{"walletContext":{"__proto__":{}}}') as unknown,
      'walletContext.__proto__',
    ],
  ])('rejects %s as unknown_field', (_, body, field) => {
    expect(errorsOf(validate(body))).toEqual([['unknown_field', field]]);
  });
});

describe('validatePrepareRequest: walletContext', () => {
  it('keeps every field, the capabilities exactly as sent', () => {
    const walletCapabilities = JSON.parse(
      '{"0x2105":{"atomic":{"status":"supported"}},"constructor":{"x":[1]},"__proto__":{"y":2}}',
    ) as Record<string, unknown>;
    const value = valueOf(
      validate({
        walletContext: { connectorName: 'MetaMask', connectorId: 'io.metamask', walletCapabilities },
      }),
    );
    expect(value.walletContext).toStrictEqual({
      connectorName: 'MetaMask',
      connectorId: 'io.metamask',
      walletCapabilities,
    });
    expect(value.walletContext?.walletCapabilities).toBe(walletCapabilities);
  });

  it.each([
    ['empty', {}],
    ['with empty capabilities', { walletCapabilities: {} }],
    ['with 256-character connector fields', { connectorName: 'n'.repeat(256), connectorId: 'i'.repeat(256) }],
    ['with empty connector fields', { connectorName: '', connectorId: '' }],
  ])('accepts a walletContext that is %s', (_, walletContext) => {
    expect(valueOf(validate({ walletContext })).walletContext).toStrictEqual(walletContext);
  });

  it.each([
    ['null', null, 'walletContext'],
    ['an array', [], 'walletContext'],
    ['a string', 'MetaMask', 'walletContext'],
    ['a 257-character connectorName', { connectorName: 'n'.repeat(257) }, 'walletContext.connectorName'],
    ['a numeric connectorName', { connectorName: 1 }, 'walletContext.connectorName'],
    ['a null connectorName', { connectorName: null }, 'walletContext.connectorName'],
    ['a 257-character connectorId', { connectorId: 'i'.repeat(257) }, 'walletContext.connectorId'],
    ['an object connectorId', { connectorId: {} }, 'walletContext.connectorId'],
    ['array capabilities', { walletCapabilities: [] }, 'walletContext.walletCapabilities'],
    ['null capabilities', { walletCapabilities: null }, 'walletContext.walletCapabilities'],
    ['string capabilities', { walletCapabilities: '{}' }, 'walletContext.walletCapabilities'],
  ])('rejects %s', (_, walletContext, field) => {
    expect(errorsOf(validate({ walletContext }))).toEqual([['invalid_wallet_context', field]]);
  });
});

describe('validatePrepareRequest: callbackUrl', () => {
  it('accepts and keeps the partner-configured URL', () => {
    expect(valueOf(validate({ callbackUrl: POLICY.callbackUrl }))).toStrictEqual({
      callbackUrl: POLICY.callbackUrl,
    });
  });

  it.each([
    ['another URL', 'https://partner.example/other'],
    ['a non-http URL', 'mailto:ops@partner.example'],
    ['not a URL', 'hooks'],
    ['null', null],
  ])('rejects %s', (_, callbackUrl) => {
    expect(errorsOf(validate({ callbackUrl }))).toEqual([['invalid_callback_url', 'callbackUrl']]);
  });

  it('rejects any URL when the partner has none configured', () => {
    expect(errorsOf(validate({ callbackUrl: POLICY.callbackUrl }, { ...POLICY, callbackUrl: null }))).toEqual(
      [['invalid_callback_url', 'callbackUrl']],
    );
  });

  it('reports unknown fields, then callbackUrl, then walletContext', () => {
    expect(errorsOf(validate({ walletContext: 1, callbackUrl: 'x', extra: 1 }))).toEqual([
      ['unknown_field', 'extra'],
      ['invalid_callback_url', 'callbackUrl'],
      ['invalid_wallet_context', 'walletContext'],
    ]);
  });
});
