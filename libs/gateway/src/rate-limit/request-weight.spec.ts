import { PARTNER_DEFAULTS, type PartnerConfig } from '@svc/platform';
import { requestWeight } from './request-weight';

const partner: PartnerConfig = {
  ...PARTNER_DEFAULTS,
  partnerId: 'p',
  secret: 's',
  authVersion: 2,
  callbackUrl: null,
  allowedProviders: ['relay', 'across', 'mayan'],
};
const body = (value: unknown) => value;
/** As the pipeline hands a body over: parsed, or undefined when it does not parse. */
const parsedOrNone = (raw: string): unknown => {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
};

describe('requestWeight', () => {
  it('costs a quote 1 + sources × the providers it may ask', () => {
    expect(requestWeight('quote', body({ sources: [{}, {}] }), partner)).toBe(7);
    expect(requestWeight('quote', body({ sources: [{}, {}], allowedProviders: ['relay'] }), partner)).toBe(3);
    // a provider the partner is not allowed adds nothing
    expect(requestWeight('quote', body({ sources: [{}], allowedProviders: ['fly', 'relay'] }), partner)).toBe(
      2,
    );
  });

  it('counts at most the 50 sources a quote may have', () => {
    expect(requestWeight('quote', body({ sources: Array(500).fill({}) }), partner)).toBe(151);
  });

  it('costs 1 for a quote body that is no JSON object (refused later) and for every other request', () => {
    for (const raw of ['', '{', 'null', '[1,2]', '"x"', '{"sources":"many"}'])
      expect([raw, requestWeight('quote', parsedOrNone(raw), partner)]).toEqual([raw, 1]);
    for (const route of ['ping', 'status', 'prepare', 'submitted'])
      expect([route, requestWeight(route, body({ sources: [{}, {}] }), partner)]).toEqual([route, 1]);
  });
});
