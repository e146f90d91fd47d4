import { ConfigError } from './config-error';
import { parsePartners } from './load-partners';

const ok = {
  partnerId: 'p1',
  secret: 's'.repeat(16),
  authVersion: 2,
  callbackUrl: 'https://p.example/hooks',
};
const parse = (partners: unknown[], env: NodeJS.ProcessEnv = {}) =>
  parsePartners(JSON.stringify({ partners }), env);

describe('parsePartners', () => {
  it('applies the documented defaults', () => {
    expect(parse([ok])).toEqual([
      {
        partnerId: 'p1',
        secret: 's'.repeat(16),
        authVersion: 2,
        callbackUrl: 'https://p.example/hooks',
        maxFeeBps: 300,
        allowedProviders: ['relay', 'across', 'mayan', 'symbiosis', 'fly'],
        rateLimitPerMinute: 600,
        enabled: true,
      },
    ]);
  });

  it('acceptEstimatedSettlement is off unless set to true, and must be a boolean (issue 24 item 5)', () => {
    expect(parse([ok])[0]).not.toHaveProperty('acceptEstimatedSettlement');
    expect(parse([{ ...ok, acceptEstimatedSettlement: false }])[0]).not.toHaveProperty(
      'acceptEstimatedSettlement',
    );
    expect(parse([{ ...ok, acceptEstimatedSettlement: true }])[0]?.acceptEstimatedSettlement).toBe(true);
    expect(() => parse([{ ...ok, acceptEstimatedSettlement: 'yes' }])).toThrow(/acceptEstimatedSettlement/);
  });

  it("reads a rotation's previous secret from previousSecretEnv, and refuses one missing, short or equal to the current", () => {
    const rotating = { ...ok, secret: undefined, secretEnv: 'P1_SECRET', previousSecretEnv: 'P1_OLD_SECRET' };
    const [p] = parse([rotating], {
      P1_SECRET: 'new-0123456789abcdef',
      P1_OLD_SECRET: 'old-0123456789abcdef',
    });
    expect([p?.secret, p?.previousSecret]).toEqual(['new-0123456789abcdef', 'old-0123456789abcdef']);
    expect(() => parse([rotating], { P1_SECRET: 'new-0123456789abcdef' })).toThrow(
      /partners\[0\]\.previousSecretEnv: environment variable P1_OLD_SECRET must hold a secret/,
    );
    expect(() =>
      parse([rotating], { P1_SECRET: 'new-0123456789abcdef', P1_OLD_SECRET: 'new-0123456789abcdef' }),
    ).toThrow(/partners\[0\]\.previousSecretEnv: the previous secret equals the current one/);
    expect(parse([ok])[0]).not.toHaveProperty('previousSecret');
  });

  it('reads the secret from the variable secretEnv names', () => {
    const [p] = parse([{ ...ok, secret: undefined, secretEnv: 'P1_SECRET' }], {
      P1_SECRET: 'from-env-0123456789',
    });
    expect(p?.secret).toBe('from-env-0123456789');
  });

  it.each([
    [{ ...ok, authVersion: 3 }, /partners\[0\]\.authVersion/],
    [{ ...ok, maxFeeBps: 1.5 }, /partners\[0\]\.maxFeeBps/],
    [{ ...ok, maxFeeBps: -1 }, /partners\[0\]\.maxFeeBps/],
    [{ ...ok, callbackUrl: 'ftp://x.example' }, /partners\[0\]\.callbackUrl/],
    [{ ...ok, allowedProviders: ['relay', 'all'] }, /partners\[0\]\.allowedProviders/],
    [{ ...ok, partnerId: 'x'.repeat(65) }, /partners\[0\]\.partnerId/],
    [{ ...ok, rateLimitPerMinute: 0 }, /partners\[0\]\.rateLimitPerMinute/],
    [{ ...ok, enabled: 'yes' }, /partners\[0\]\.enabled/],
    [{ ...ok, secret: 'short' }, /partners\[0\]\.secret/],
    [{ ...ok, secret: undefined }, /partners\[0\]: exactly one of secret or secretEnv/],
    [{ ...ok, secretEnv: 'ALSO' }, /partners\[0\]: exactly one of secret or secretEnv/],
    [
      { ...ok, secret: undefined, secretEnv: 'MISSING_VAR' },
      /partners\[0\]\.secretEnv: environment variable MISSING_VAR/,
    ],
  ])('rejects %j naming the field', (entry, message) => {
    expect(() => parse([entry])).toThrow(ConfigError);
    expect(() => parse([entry])).toThrow(message);
  });

  it('rejects duplicate partner ids', () => {
    expect(() => parse([ok, ok])).toThrow(/partners\[1\]\.partnerId: duplicate/);
  });

  it('rejects a file that is not JSON or has no partners array, without echoing secrets', () => {
    expect(() => parsePartners('{', {})).toThrow(/not valid JSON/);
    expect(() => parsePartners('{"partners": 3}', {})).toThrow(/partners/);
    try {
      parse([{ ...ok, secret: 'leak-me-0123456789', authVersion: 9 }]);
    } catch (err) {
      expect((err as Error).message).not.toContain('leak-me');
    }
  });

  it('checks each entry by its own rules, whatever keys the file adds (__proto__, constructor)', () => {
    const json = `{"__proto__": {"partners": []}, "partners": [${JSON.stringify({ ...ok, constructor: 'x' }).replace('{', '{"__proto__": {"authVersion": 2},')}]}`;
    expect(parsePartners(json, {}).map((p) => p.partnerId)).toEqual(['p1']);
    const wrongVersion = json.replace('"authVersion":2', '"authVersion":"2"');
    expect(() => parsePartners(wrongVersion, {})).toThrow(
      /partners\[0\]\.authVersion: authVersion must be one of/,
    );
    expect(() => parsePartners('{"partners": {"partnerId": "p1"}}', {})).toThrow(
      /partners: partners must be an array/,
    );
  });
});
