import { ConfigError } from '@svc/platform';
import { DEFAULT_SETTLEMENT_OPTIONS } from '@svc/settlement';
import { loadAppConfig } from './app-config';

describe('loadAppConfig', () => {
  it('groups the defaults by what uses them', () => {
    const config = loadAppConfig({ INSTANCE_ID: 'test-1' });
    expect(config.http).toEqual({
      host: '127.0.0.1',
      port: 3000,
      ops: { port: 9464, onApiPort: false },
      limits: {
        headersTimeoutMs: 10000,
        requestTimeoutMs: 30000,
        keepAliveTimeoutMs: 72000,
        sendTimeoutMs: 30000,
        maxConnections: 10000,
        maxConnectionsPerClient: 256,
        maxNewConnectionsPerClientPerSecond: 100,
        maxBodyBytesInFlight: 64 * 1024 * 1024,
        maxBodyBytesInFlightPerClient: 4 * 1024 * 1024,
      },
      unauthenticatedRateLimitPerMinute: 60,
      trustProxy: false,
    });
    expect(config.store).toEqual({
      kind: 'sqlite',
      dataDir: 'data',
      eventStoreDbUrl: null,
      readModels: { dir: 'data', snapshotDir: null, snapshotEveryMs: 900_000 },
    });
    expect(config.bus).toEqual({
      kind: 'inprocess',
      requestTimeoutMs: 30000,
      kafka: {
        brokers: ['localhost:9092'],
        clientId: 'svc',
        groupPrefix: 'svc',
        maxWaitTimeInMs: 100,
        idempotent: false,
        allowAutoTopicCreation: true,
        sessionTimeoutMs: 30000,
        topicPrefix: '',
        handlerConcurrency: 32,
        ssl: false,
        sasl: null,
      },
    });
    expect(config.work).toEqual({ instanceId: 'test-1', shardCount: 16, leaseTtlMs: 15_000 });
    // The tracker polls providers no slower than it ticks (min(pollMinMs, SETTLEMENT_TICK_MS)).
    expect(config.settlement).toEqual({
      ...DEFAULT_SETTLEMENT_OPTIONS,
      trackingLimitMs: 7_200_000,
      pollMinMs: 250,
    });
    expect(config.quoting).toEqual({
      quoteTtlSeconds: 60,
      minimumProviderQuoteSeconds: 60,
      defaultMaxWaitMs: 8000,
      providerConcurrency: 64,
      sourceGas: true,
      feeDataMaxAgeMs: 1000,
      serviceFeeBps: 0,
      serviceFeeRecipient: null,
    });
    expect(config.files).toEqual({ partners: 'config/partners.dev.json', chains: null });
    expect(config.production).toBe(false);
    expect(config.providers.relay.baseUrl).toBe('https://api.relay.link');
  });

  it('reads the Kafka settings, booleans as true or false only', () => {
    const { kafka } = loadAppConfig({
      KAFKA_BROKERS: 'a:9092, b:9092,',
      KAFKA_IDEMPOTENT: 'true',
      KAFKA_AUTO_CREATE_TOPICS: 'false',
      KAFKA_TOPIC_PREFIX: 'staging.',
    }).bus;
    expect(kafka).toEqual(
      expect.objectContaining({
        brokers: ['a:9092', 'b:9092'],
        idempotent: true,
        allowAutoTopicCreation: false,
        topicPrefix: 'staging.',
      }),
    );
  });

  it('reads TLS and SASL for the bus (M6), and refuses half a SASL setting', () => {
    const { kafka } = loadAppConfig({
      KAFKA_SSL: 'true',
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'gateway',
      KAFKA_SASL_PASSWORD: 'pw-0123456789',
    }).bus;
    expect([kafka.ssl, kafka.sasl]).toEqual([
      {},
      { mechanism: 'scram-sha-512', username: 'gateway', password: 'pw-0123456789' },
    ]);
    expect(() => loadAppConfig({ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u' })).toThrow(
      /KAFKA_SASL_USERNAME, KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM=scram-sha-256/,
    );
    expect(() => loadAppConfig({ KAFKA_SASL_MECHANISM: 'gssapi' })).toThrow(/KAFKA_SASL_MECHANISM/);
    expect(() => loadAppConfig({ KAFKA_SSL: 'true', KAFKA_SSL_CA_FILE: '/nonexistent/ca.pem' })).toThrow(
      /KAFKA_SSL_CA_FILE: cannot read/,
    );
  });

  it.each([
    ['KAFKA_IDEMPOTENT', 'ture'],
    ['KAFKA_IDEMPOTENT', '1'],
    ['KAFKA_AUTO_CREATE_TOPICS', 'no'],
    ['KAFKA_BROKERS', ' , '],
    ['KAFKA_MAX_WAIT_MS', '-1'],
    ['KAFKA_SESSION_TIMEOUT_MS', '1000'],
    ['KAFKA_TOPIC_PREFIX', 'staging/'],
  ])('a bad %s (%s) stops with a ConfigError naming it', (name, value) => {
    expect(() => loadAppConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadAppConfig({ [name]: value })).toThrow(`\n  ${name}: `);
  });

  it('reports every bad variable at once, across the DTOs, without echoing a value', () => {
    let message = '';
    try {
      loadAppConfig({ PORT: 'eighty', RELAY_API_KEY: 'sk live', KAFKA_IDEMPOTENT: 'ture' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/^invalid environment:\n/);
    expect(message).toMatch(/\n {2}PORT: /);
    expect(message).toContain('\n  RELAY_API_KEY: must not contain whitespace');
    expect(message).toContain('\n  KAFKA_IDEMPOTENT: must be true or false');
    expect(message).not.toMatch(/sk live|ture/);
  });

  it('reads the HTTP defences and the ops listener, and refuses a request timeout shorter than the headers one', () => {
    const config = loadAppConfig({
      OPS_PORT: '0',
      OPS_ON_API_PORT: 'true',
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      MAX_CONNECTIONS: '5',
      AUTH_FAILURES_PER_MINUTE: '7',
    });
    expect([
      config.http.ops,
      config.http.limits.maxConnections,
      config.http.unauthenticatedRateLimitPerMinute,
    ]).toEqual([{ port: 0, onApiPort: true }, 5, 7]);
    expect(() => loadAppConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' })).toThrow(
      /HTTP_REQUEST_TIMEOUT_MS: must be at least HTTP_HEADERS_TIMEOUT_MS/,
    );
    expect(() => loadAppConfig({ OPS_ON_API_PORT: 'yes', MAX_CONNECTIONS: '0' })).toThrow(
      /OPS_ON_API_PORT: must be true or false[\s\S]*MAX_CONNECTIONS/,
    );
  });

  it.each<[string, false | number | string[]]>([
    ['', false],
    ['1', 1],
    ['10.0.0.0/8', ['10.0.0.0/8']],
    ['127.0.0.1, 10.0.0.0/8,::1', ['127.0.0.1', '10.0.0.0/8', '::1']],
  ])('reads TRUST_PROXY %j as %j', (value, trustProxy) => {
    expect(loadAppConfig({ TRUST_PROXY: value }).http.trustProxy).toEqual(trustProxy);
  });

  it('refuses a TRUST_PROXY that is neither a hop count nor addresses', () => {
    expect(() => loadAppConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY: /);
    expect(() => loadAppConfig({ TRUST_PROXY: 'lb.example' })).toThrow(/TRUST_PROXY: /);
  });

  it('checks what the booting composition needs', () => {
    expect(() => loadAppConfig({ BUS: 'kafka' }, { name: 'standalone', distributed: false })).toThrow(
      /BUS: the one-process service runs its own in-process bus/,
    );
    expect(() => loadAppConfig({ EVENT_STORE: 'memory' }, { name: 'quoting', distributed: true })).toThrow(
      /BUS: must be kafka for the quoting app[\s\S]*EVENT_STORE: must be sqlite or eventstoredb for the quoting app/,
    );
    expect(loadAppConfig({ BUS: 'kafka' }, { name: 'quoting', distributed: true }).bus.kind).toBe('kafka');
  });

  it('refuses a distributed app in production without TLS and SASL to the brokers (issue 23 item 5)', () => {
    const gateway = { name: 'gateway', distributed: true };
    const production = { BUS: 'kafka', NODE_ENV: 'production' };
    const sasl = {
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'svc',
      KAFKA_SASL_PASSWORD: 'pw-0123456789',
    };
    const refusal = /KAFKA_SSL, KAFKA_SASL_MECHANISM: NODE_ENV=production requires TLS and SASL/;
    expect(() => loadAppConfig(production, gateway)).toThrow(refusal);
    expect(() => loadAppConfig({ ...production, KAFKA_SSL: 'true' }, gateway)).toThrow(refusal);
    expect(() => loadAppConfig({ ...production, ...sasl }, gateway)).toThrow(refusal);
    const secured = loadAppConfig({ ...production, ...sasl, KAFKA_SSL: 'true' }, gateway);
    expect([secured.bus.kafka.ssl, secured.bus.kafka.sasl?.mechanism]).toEqual([{}, 'scram-sha-512']);
    // Outside production (the compose file, the dev loop) and for the one-process service, nothing is required.
    expect(loadAppConfig({ BUS: 'kafka' }, gateway).bus.kafka.ssl).toBe(false);
    expect(
      loadAppConfig({ NODE_ENV: 'production' }, { name: 'standalone', distributed: false }).bus.kind,
    ).toBe('inprocess');
  });

  describe('production guards (security review N-L3)', () => {
    const standalone = { name: 'standalone', distributed: false };
    const production = { NODE_ENV: 'production' };

    it('refuses OPS_ON_API_PORT=true in production unless PRODUCTION_OVERRIDES names it', () => {
      expect(() => loadAppConfig({ ...production, OPS_ON_API_PORT: 'true' }, standalone)).toThrow(
        /\n {2}OPS_ON_API_PORT: refused with NODE_ENV=production .*PRODUCTION_OVERRIDES=OPS_ON_API_PORT/,
      );
      expect(() => loadAppConfig({ ...production, OPS_ON_API_PORT: 'true' })).toThrow(/OPS_ON_API_PORT/);
      const kept = loadAppConfig(
        { ...production, OPS_ON_API_PORT: 'true', PRODUCTION_OVERRIDES: 'OPS_ON_API_PORT' },
        standalone,
      );
      expect(kept.http.ops.onApiPort).toBe(true);
      expect(loadAppConfig({ OPS_ON_API_PORT: 'true' }, standalone).http.ops.onApiPort).toBe(true);
    });

    it('refuses EVENT_STORE=memory for the standalone service in production unless PRODUCTION_OVERRIDES names it', () => {
      expect(() => loadAppConfig({ ...production, EVENT_STORE: 'memory' }, standalone)).toThrow(
        /\n {2}EVENT_STORE: memory keeps nothing across a restart, refused with NODE_ENV=production/,
      );
      const kept = loadAppConfig(
        { ...production, EVENT_STORE: 'memory', PRODUCTION_OVERRIDES: 'EVENT_STORE, OPS_ON_API_PORT' },
        standalone,
      );
      expect(kept.store.kind).toBe('memory');
      expect(loadAppConfig({ EVENT_STORE: 'memory' }, standalone).store.kind).toBe('memory');
      expect(loadAppConfig({ ...production }, standalone).store.kind).toBe('sqlite');
    });

    it('refuses a PRODUCTION_OVERRIDES entry that is not a guard that can be waived', () => {
      expect(() => loadAppConfig({ PRODUCTION_OVERRIDES: 'SERVICE_FEE_RECIPIENT' })).toThrow(
        /\n {2}PRODUCTION_OVERRIDES: /,
      );
    });
  });
});
