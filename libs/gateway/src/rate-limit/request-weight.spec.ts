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

  it('costs a quote 1 + (sources + targets - 1) × providers: the slices it may route (security review N-L4)', () => {
    const targets = (n: number) => Array(n).fill({});
    // One source and 10 targets: up to 10 slices, 30 provider calls (charged 4 before).
    expect(requestWeight('quote', body({ sources: [{}], targets: targets(10) }), partner)).toBe(31);
    expect(requestWeight('quote', body({ sources: [{}, {}], targets: targets(3) }), partner)).toBe(13);
    // The single-target form and one target are one slice per source.
    expect(requestWeight('quote', body({ sources: [{}, {}], target: {} }), partner)).toBe(7);
    expect(requestWeight('quote', body({ sources: [{}, {}], targets: targets(1) }), partner)).toBe(7);
    // At most what the longest quote allowed routes: 50 + 10 - 1 slices.
    expect(requestWeight('quote', body({ sources: targets(500), targets: targets(500) }), partner)).toBe(
      1 + 59 * 3,
    );
    // Without sources nothing is routed (refused later); an empty targets array counts as one target.
    expect(requestWeight('quote', body({ sources: [], targets: targets(10) }), partner)).toBe(1);
    expect(requestWeight('quote', body({ sources: [{}], targets: [] }), partner)).toBe(4);
  });

  it('costs 1 for a quote body that is no JSON object (refused later) and for every other request', () => {
    for (const raw of ['', '{', 'null', '[1,2]', '"x"', '{"sources":"many"}'])
      expect([raw, requestWeight('quote', parsedOrNone(raw), partner)]).toEqual([raw, 1]);
    for (const route of ['ping', 'status', 'prepare', 'submitted'])
      expect([route, requestWeight(route, body({ sources: [{}, {}] }), partner)]).toEqual([route, 1]);
  });
});
