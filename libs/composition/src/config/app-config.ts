import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { DEFAULT_EXECUTION_OPTIONS, type ExecutionOptions } from '@svc/execution';
import { type GatewayOptions, type HttpServerLimits } from '@svc/gateway';
import { type WorkSharing } from '@svc/leases';
import { type KafkaBusConfig, kafkaBusConfig, KafkaEnv } from '@svc/messaging';
import {
  ConfigError,
  type EnvOf,
  readEnv,
  ServiceEnv,
  TracingEnv,
  type TracingSettings,
  tracingSettings,
} from '@svc/platform';
import { providersConfig, type ProvidersConfig, ProvidersEnv } from '@svc/providers';
import { type QuotingOptions } from '@svc/quoting';
import { DEFAULT_SETTLEMENT_OPTIONS, type SettlementOptions } from '@svc/settlement';
import {
  CallbackAddressPolicy,
  DEFAULT_WEBHOOK_HISTORY_OPTIONS,
  DEFAULT_WEBHOOKS_OPTIONS,
  defaultAllowedCallbackAddresses,
  type WebhooksOptions,
} from '@svc/webhooks';

/**
 * Every variable a service app reads, each declared once in the DTO of the lib that owns it: the service's own
 * (`ServiceEnv`), the providers', Kafka's and OpenTelemetry's. docs/operations/configuration.md lists them all (readme-env-table.spec.ts).
 */
export const ENV_DTOS = {
  service: ServiceEnv,
  providers: ProvidersEnv,
  kafka: KafkaEnv,
  tracing: TracingEnv,
} as const;

export type Env = EnvOf<typeof ENV_DTOS>;

/** The configuration of a service app, typed and grouped by what uses it; read once at boot by loadAppConfig. */
export interface AppConfig {
  http: {
    host: string;
    port: number;
    /** The ops listener of the apps serving the partner API, and whether the partner port serves ops too. */
    ops: { port: number; onApiPort: boolean };
    limits: HttpServerLimits;
    unauthenticatedRateLimitPerMinute: number;
    /** TRUST_PROXY: false, a hop count, or the proxy addresses/CIDRs whose X-Forwarded-For is believed. */
    trustProxy: false | number | string[];
  };
  log: { level: string };
  /** OpenTelemetry traces (the `OTEL_*` variables); null = off, the default. */
  tracing: TracingSettings | null;
  /** NODE_ENV=production: boot is strict (provider credentials, https-only provider URLs). */
  production: boolean;
  /** PRODUCTION_OVERRIDES: the production guards waived on purpose, by the variable each is about. */
  productionOverrides: ReadonlySet<ProductionOverride>;
  files: { partners: string; chains: string | null };
  store: {
    kind: ServiceEnv['EVENT_STORE'];
    dataDir: string;
    eventStoreDbUrl: string | null;
    /** Where `read-models.sqlite` lives, and the snapshots a new replica starts from (null: none). */
    readModels: { dir: string; snapshotDir: string | null; snapshotEveryMs: number };
  };
  bus: { kind: ServiceEnv['BUS']; requestTimeoutMs: number; kafka: KafkaBusConfig };
  /** How this instance shares background work with the others on the same store. */
  work: WorkSharing;
  providers: ProvidersConfig;
  gateway: GatewayOptions;
  quoting: QuotingOptions;
  execution: ExecutionOptions;
  settlement: SettlementOptions;
  webhooks: WebhooksOptions;
}

/** Which composition is booting, for the checks that depend on it (BUS, a store processes can share). */
export interface AppRole {
  name: string;
  distributed: boolean;
}

/**
 * Validates the whole environment at once (a ConfigError lists every bad variable by name, never its value) and
 * returns the typed configuration. With `role`, also what that composition needs: the one-process service runs the
 * in-process bus; each distributed app needs Kafka and a store other processes can share.
 */
export function loadAppConfig(environment: NodeJS.ProcessEnv, role?: AppRole): AppConfig {
  const env = readEnv(ENV_DTOS, environment);
  if (env.service.HTTP_REQUEST_TIMEOUT_MS < env.service.HTTP_HEADERS_TIMEOUT_MS)
    throw new ConfigError(
      'invalid environment:\n  HTTP_REQUEST_TIMEOUT_MS: must be at least HTTP_HEADERS_TIMEOUT_MS (the headers are part of the request)',
    );
  const bounds = httpBoundProblems(env.service);
  if (bounds.length) throw new ConfigError(`invalid environment:\n  ${bounds.join('\n  ')}`);
  if (role) checkRole(env.service, role, env.kafka);
  checkProduction(env.service, role);
  return appConfig(env, role?.name ?? 'intent-service');
}

function appConfig({ service: env, providers, kafka, tracing }: Env, name: string): AppConfig {
  return {
    http: {
      host: env.HOST,
      port: env.PORT,
      ops: { port: env.OPS_PORT, onApiPort: env.OPS_ON_API_PORT },
      limits: {
        headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS,
        requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS,
        keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS,
        sendTimeoutMs: env.HTTP_SEND_TIMEOUT_MS,
        maxConnections: env.MAX_CONNECTIONS,
        maxConnectionsPerClient: env.MAX_CONNECTIONS_PER_CLIENT,
        maxNewConnectionsPerClientPerSecond: env.MAX_NEW_CONNECTIONS_PER_CLIENT_PER_SECOND,
        maxBodyBytesInFlight: env.MAX_BODY_BYTES_IN_FLIGHT,
        maxBodyBytesInFlightPerClient: env.MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT,
      },
      unauthenticatedRateLimitPerMinute: env.AUTH_FAILURES_PER_MINUTE,
      trustProxy: trustProxyOf(env.TRUST_PROXY),
    },
    log: { level: env.LOG_LEVEL },
    tracing: tracingSettings(tracing, name),
    production: env.NODE_ENV === 'production',
    productionOverrides: productionOverridesOf(env.PRODUCTION_OVERRIDES),
    files: { partners: env.PARTNERS_FILE, chains: env.CHAINS_FILE ?? null },
    store: {
      kind: env.EVENT_STORE,
      dataDir: env.DATA_DIR,
      eventStoreDbUrl: env.EVENTSTOREDB_URL ?? null,
      readModels: {
        dir: env.READ_MODELS_DIR ?? env.DATA_DIR,
        snapshotDir: env.READ_MODELS_SNAPSHOT_DIR ?? null,
        snapshotEveryMs: env.READ_MODELS_SNAPSHOT_MINUTES * 60_000,
      },
    },
    bus: { kind: env.BUS, requestTimeoutMs: env.BUS_REQUEST_TIMEOUT_MS, kafka: kafkaBusConfig(kafka) },
    work: {
      instanceId: env.INSTANCE_ID ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
      shardCount: env.WORK_SHARDS,
      leaseTtlMs: env.LEASE_TTL_SECONDS * 1000,
    },
    providers: providersConfig(providers),
    gateway: {
      maxBodyBytes: env.MAX_BODY_BYTES,
      idempotencyRetentionHours: env.IDEMPOTENCY_RETENTION_HOURS,
      idempotencyLeaseSeconds: env.IDEMPOTENCY_LEASE_SECONDS,
      busRequestTimeoutMs: env.BUS_REQUEST_TIMEOUT_MS,
    },
    quoting: {
      quoteTtlSeconds: env.QUOTE_TTL_SECONDS,
      minimumProviderQuoteSeconds:
        DEFAULT_EXECUTION_OPTIONS.signableSeconds + DEFAULT_EXECUTION_OPTIONS.executionSeconds,
      defaultMaxWaitMs: env.QUOTE_MAX_WAIT_MS,
      providerConcurrency: env.QUOTE_PROVIDER_CONCURRENCY,
      sourceGas: env.QUOTE_SOURCE_GAS,
      feeDataMaxAgeMs: env.QUOTE_FEE_DATA_MAX_AGE_MS,
      serviceFeeBps: env.SERVICE_FEE_BPS,
      serviceFeeRecipient: env.SERVICE_FEE_RECIPIENT ?? null,
    },
    execution: {
      ...DEFAULT_EXECUTION_OPTIONS,
      evidenceWindowSeconds: env.EVIDENCE_WINDOW_SECONDS,
      authorizationTtlSeconds: env.AUTHORIZATION_TTL_SECONDS,
      quoteFreshnessSeconds: env.QUOTE_FRESHNESS_SECONDS,
    },
    settlement: {
      ...DEFAULT_SETTLEMENT_OPTIONS,
      tickMs: env.SETTLEMENT_TICK_MS,
      trackingLimitMs: env.SETTLEMENT_TRACKING_LIMIT_SECONDS * 1000,
      pollMinMs: Math.min(DEFAULT_SETTLEMENT_OPTIONS.pollMinMs, Math.max(50, env.SETTLEMENT_TICK_MS)),
      concurrency: env.SETTLEMENT_CONCURRENCY,
      attemptBudgetMs: env.SETTLEMENT_ATTEMPT_BUDGET_MS,
      delayMarginMs: env.SETTLEMENT_DELAY_MARGIN_SECONDS * 1000,
    },
    webhooks: {
      ...DEFAULT_WEBHOOKS_OPTIONS,
      tickMs: env.WEBHOOK_TICK_MS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      history: { ...DEFAULT_WEBHOOK_HISTORY_OPTIONS, retentionDays: env.WEBHOOK_HISTORY_RETENTION_DAYS },
      allowedCallbackAddresses: allowedCallbackAddresses(env),
    },
  };
}

/** WEBHOOK_ALLOWED_ADDRESSES, checked here so that a bad entry stops the boot naming the variable. */
function allowedCallbackAddresses(env: ServiceEnv): string[] {
  const listed = env.WEBHOOK_ALLOWED_ADDRESSES;
  const ranges =
    listed === undefined
      ? defaultAllowedCallbackAddresses(env.NODE_ENV === 'production')
      : listed
          .split(',')
          .map((r) => r.trim())
          .filter((r) => r !== '');
  try {
    new CallbackAddressPolicy(ranges);
  } catch {
    throw new ConfigError(
      'invalid environment:\n  WEBHOOK_ALLOWED_ADDRESSES: every entry must be an IP address or a CIDR (10.0.0.0/8, ::1)',
    );
  }
  return ranges;
}

function checkRole(env: ServiceEnv, role: AppRole, kafka: KafkaEnv): void {
  const problems: string[] = [];
  if (!role.distributed && env.BUS !== 'inprocess')
    problems.push(
      'BUS: the one-process service runs its own in-process bus; BUS=kafka is for the five distributed apps',
    );
  if (role.distributed && env.BUS !== 'kafka')
    problems.push(
      `BUS: must be kafka for the ${role.name} app (the one-process service is \`npm run service\`)`,
    );
  if (role.distributed && env.EVENT_STORE === 'memory')
    problems.push(
      `EVENT_STORE: must be sqlite or eventstoredb for the ${role.name} app (processes cannot share a memory store)`,
    );
  // N-M8, M6: the bus carries the lifecycle facts the dispatcher signs and the replies the gateway answers with.
  if (role.distributed && env.NODE_ENV === 'production' && (!kafka.KAFKA_SSL || !kafka.KAFKA_SASL_MECHANISM))
    problems.push(
      'KAFKA_SSL, KAFKA_SASL_MECHANISM: NODE_ENV=production requires TLS and SASL to the brokers (KAFKA_SSL=true and ' +
        'KAFKA_SASL_MECHANISM with KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD)',
    );
  if (env.EVENT_STORE === 'memory' && env.READ_MODELS_SNAPSHOT_DIR !== undefined)
    problems.push(
      'READ_MODELS_SNAPSHOT_DIR: the memory store keeps its read models in memory; snapshots are for a read-model file',
    );
  if (problems.length) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
}

/** The HTTP limits that only make sense together (docs/operations/configuration.md). */
function httpBoundProblems(env: ServiceEnv): string[] {
  const problems: string[] = [];
  if (env.MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT < env.MAX_BODY_BYTES)
    problems.push('MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT: must be at least MAX_BODY_BYTES (one largest body)');
  if (env.MAX_BODY_BYTES_IN_FLIGHT < env.MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT)
    problems.push('MAX_BODY_BYTES_IN_FLIGHT: must be at least MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT');
  return problems;
}

/** The production guards PRODUCTION_OVERRIDES may waive, by the variable each one is about. */
export type ProductionOverride = 'OPS_ON_API_PORT' | 'EVENT_STORE' | 'CHAINS_FILE';

function productionOverridesOf(value: string): ReadonlySet<ProductionOverride> {
  return new Set(
    value
      .split(',')
      .map((name) => name.trim())
      .filter((name): name is ProductionOverride => name !== ''),
  );
}

/**
 * What NODE_ENV=production refuses in the environment itself (security review N-L3), each unless PRODUCTION_OVERRIDES
 * names its variable: /readyz and /metrics on the partner port, and a standalone service whose events vanish with the
 * process. (loadRuntime adds the checks that need the files: fee recipient, chains.)
 */
function checkProduction(env: ServiceEnv, role: AppRole | undefined): void {
  if (env.NODE_ENV !== 'production') return;
  const overrides = productionOverridesOf(env.PRODUCTION_OVERRIDES);
  const problems: string[] = [];
  if (env.OPS_ON_API_PORT && !overrides.has('OPS_ON_API_PORT'))
    problems.push(
      'OPS_ON_API_PORT: refused with NODE_ENV=production (/readyz and /metrics would answer anyone who reaches the ' +
        'partner port; scrape OPS_PORT instead), unless PRODUCTION_OVERRIDES=OPS_ON_API_PORT',
    );
  if (role && !role.distributed && env.EVENT_STORE === 'memory' && !overrides.has('EVENT_STORE'))
    problems.push(
      'EVENT_STORE: memory keeps nothing across a restart, refused with NODE_ENV=production (every attempt, nonce ' +
        'and webhook would be lost): use sqlite, or PRODUCTION_OVERRIDES=EVENT_STORE for a deliberate exception',
    );
  if (problems.length) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
}

/** TRUST_PROXY as Fastify's `trustProxy` takes it (the DTO has checked its form). */
export function trustProxyOf(value: string): false | number | string[] {
  const trimmed = value.trim();
  if (trimmed === '') return false;
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  return trimmed.split(',').map((part) => part.trim());
}
