import { Writable } from 'node:stream';
import { ConfigError, createLogger, type PartnerConfig } from '@svc/platform';
import { loadProvidersConfig, type ProvidersConfig } from '@svc/providers';
import { checkProvidersAtBoot } from './check-providers-at-boot';

const partner = (overrides: Partial<PartnerConfig> = {}): PartnerConfig => ({
  partnerId: 'acme',
  secret: 'secret-0123456789abcdef',
  authVersion: 2,
  callbackUrl: null,
  maxFeeBps: 0,
  allowedProviders: ['relay', 'across', 'mayan'],
  rateLimitPerMinute: 600,
  enabled: true,
  ...overrides,
});

const KEYS = {
  RELAY_API_KEY: 'relay-key-0123456789',
  ACROSS_API_KEY: 'across-key-0123456789',
  ACROSS_INTEGRATOR_ID: '0xdead',
  MAYAN_API_KEY: 'mayan-key-0123456789',
};

/** Boots the check with a real JSON logger; returns the warning lines it wrote and what it threw. */
function boot(config: ProvidersConfig, partners: PartnerConfig[], production: boolean) {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger({ level: 'info', name: 'boot', destination });
  let error: unknown = null;
  try {
    checkProvidersAtBoot({ config, partners, production, logger });
  } catch (err) {
    error = err;
  }
  return { lines, error };
}

describe('checkProvidersAtBoot', () => {
  it('warns once per enabled provider without its production credentials, naming the variables', () => {
    const config = loadProvidersConfig({ ACROSS_API_KEY: KEYS.ACROSS_API_KEY });

    const { lines, error } = boot(config, [partner()], false);

    expect(error).toBeNull();
    expect(lines.map((l) => [l.level, l.provider, l.missing])).toEqual([
      [40, 'relay', ['RELAY_API_KEY']],
      [40, 'across', ['ACROSS_INTEGRATOR_ID']],
      [40, 'mayan', ['MAYAN_API_KEY']],
    ]);
    expect(lines[1].msg).toMatch(
      /^ACROSS_INTEGRATOR_ID not set: across may rate-limit or reject every request/,
    );
    expect(JSON.stringify(lines)).not.toContain(KEYS.ACROSS_API_KEY);
  });

  it('says nothing with every credential set, or for a provider no enabled partner allows', () => {
    expect(boot(loadProvidersConfig(KEYS), [partner()], true)).toEqual({ lines: [], error: null });
    const relayOnly = [
      partner({ allowedProviders: ['relay'] }),
      partner({ partnerId: 'off', enabled: false }),
    ];
    expect(boot(loadProvidersConfig({ RELAY_API_KEY: KEYS.RELAY_API_KEY }), relayOnly, true)).toEqual({
      lines: [],
      error: null,
    });
  });

  it('refuses to boot in production while an enabled provider lacks them, naming every variable and no value', () => {
    const config = loadProvidersConfig({
      RELAY_API_KEY: KEYS.RELAY_API_KEY,
      ACROSS_API_KEY: KEYS.ACROSS_API_KEY,
    });

    const { error, lines } = boot(config, [partner()], true);

    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(
      'ACROSS_INTEGRATOR_ID: required with NODE_ENV=production while a partner allows across',
    );
    expect(message).toContain(
      'MAYAN_API_KEY: required with NODE_ENV=production while a partner allows mayan',
    );
    expect(message).not.toContain('RELAY_API_KEY');
    expect(message).not.toContain(KEYS.ACROSS_API_KEY);
    expect(lines).toHaveLength(2);
  });

  it('refuses plain-http provider hosts in production', () => {
    const config = loadProvidersConfig({ ...KEYS, PROVIDER_PLAIN_HTTP_HOSTS: 'provider-sandbox' });
    expect(boot(config, [partner()], false).error).toBeNull();
    expect((boot(config, [partner()], true).error as Error).message).toContain(
      'PROVIDER_PLAIN_HTTP_HOSTS: not allowed with NODE_ENV=production',
    );
  });
});
