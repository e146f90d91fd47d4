import {
  IsIn,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  MinLength,
  ValidateIf,
} from 'class-validator';
import { EnvNumber, EnvSecret, IsEnvBoolean } from './read-env';

/**
 * The service's own variables, validated at boot with the providers' (`ProvidersEnv`) and Kafka's (`KafkaEnv`) by
 * `loadAppConfig`: a bad value stops the process with a message naming the variable. Defaults work on a fresh
 * clone. docs/operations/configuration.md lists every variable; a spec keeps it in step with these DTOs.
 */
export class ServiceEnv {
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  @IsString()
  @MinLength(1)
  HOST = '127.0.0.1';

  @IsString()
  @MinLength(1)
  PARTNERS_FILE = 'config/partners.dev.json';

  @IsString()
  @MinLength(1)
  DATA_DIR = 'data';

  /**
   * Where the read models live (`read-models.sqlite`: checkpointed projections); default DATA_DIR. With
   * EVENT_STORE=eventstoredb, a volume of each replica's own.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  READ_MODELS_DIR?: string;

  /**
   * A directory the replicas share (ADR 0007): one replica writes a snapshot of its read models there every
   * READ_MODELS_SNAPSHOT_MINUTES, and a replica that starts without a read-model file copies the newest one and
   * reads only the events recorded since. Unset: off (a new replica projects the whole log).
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  READ_MODELS_SNAPSHOT_DIR?: string;

  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1440)
  READ_MODELS_SNAPSHOT_MINUTES = 15;

  /** The chains the service reads (`{"chains":[{chainId,name,rpcUrl,nativeSymbol}]}`); unset = none. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  CHAINS_FILE?: string;

  @IsIn(['sqlite', 'memory', 'eventstoredb'])
  EVENT_STORE: 'sqlite' | 'memory' | 'eventstoredb' = 'sqlite';

  /** Its connection string may carry credentials. */
  @EnvSecret()
  @ValidateIf((env: ServiceEnv) => env.EVENT_STORE === 'eventstoredb')
  @IsNotEmpty({ message: 'required when EVENT_STORE=eventstoredb' })
  EVENTSTOREDB_URL?: string;

  /** How the apps talk: `inprocess` (the one-process service) or `kafka` (the five distributed apps). */
  @IsIn(['inprocess', 'kafka'])
  BUS: 'inprocess' | 'kafka' = 'inprocess';

  /** Names this process in shard leases and logs; unique per running instance (default: host-pid-random). */
  @IsOptional()
  @Matches(/^[A-Za-z0-9._:-]{1,128}$/, { message: 'INSTANCE_ID must be 1 to 128 of A-Z a-z 0-9 . _ : -' })
  INSTANCE_ID?: string;

  /**
   * Background work (settlement tracking, webhook delivery) is split into this many shards by attemptId; each shard
   * is leased to one instance at a time. Every instance sharing a store must use the same value.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1024)
  WORK_SHARDS = 16;

  /** A shard lease not renewed for this long is taken over by another instance (renewed every third of it). */
  @EnvNumber()
  @IsInt()
  @Min(3)
  @Max(600)
  LEASE_TTL_SECONDS = 15;

  @IsIn(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
  LOG_LEVEL = 'info';

  /** `production` makes boot strict: e.g. an enabled provider without its production credentials stops it. */
  @IsOptional()
  @IsString()
  NODE_ENV?: string;

  /**
   * Production guards waived on purpose (security review N-L3), by the variable each one is about: `OPS_ON_API_PORT`
   * (/readyz and /metrics on the partner port), `EVENT_STORE` (the memory store in the standalone service),
   * `CHAINS_FILE` (no chains file, or one missing chains the providers serve). Comma-separated; empty: none.
   */
  @Matches(/^\s*((OPS_ON_API_PORT|EVENT_STORE|CHAINS_FILE)\s*(,\s*(?=\S)|$))*$/, {
    message: 'PRODUCTION_OVERRIDES lists only OPS_ON_API_PORT, EVENT_STORE and CHAINS_FILE, comma-separated',
  })
  PRODUCTION_OVERRIDES = '';

  /** Largest accepted request body; larger bodies get 413 payload_too_large. */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024)
  MAX_BODY_BYTES = 262144;

  /**
   * The port of the ops listener (/healthz, /readyz, /metrics) of the apps that serve the partner API (gateway,
   * standalone); the other apps serve them on PORT, which carries nothing else.
   */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(65535)
  OPS_PORT = 9464;

  /** `true`: /readyz and /metrics are served on the partner port too (/healthz always is). */
  @IsEnvBoolean()
  OPS_ON_API_PORT = false;

  /** The request line and headers must arrive within this; otherwise 408 request_timeout, connection closed. */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  @Max(300000)
  HTTP_HEADERS_TIMEOUT_MS = 10000;

  /** The whole request (headers and body) must arrive within this; at least HTTP_HEADERS_TIMEOUT_MS. */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  @Max(600000)
  HTTP_REQUEST_TIMEOUT_MS = 30000;

  /** An idle keep-alive connection is closed after this (above a load balancer's idle timeout). */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  @Max(600000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS = 72000;

  /** A connection whose client does not read what waits to be sent to it for this long is closed (a slow reader). */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  @Max(600000)
  HTTP_SEND_TIMEOUT_MS = 30000;

  /** Connections one instance holds open at once; one more is answered 503 connection_limit_reached. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000000)
  MAX_CONNECTIONS = 10000;

  /**
   * Connections one client address (IPv6: its /64) holds open at once, a trusted proxy (TRUST_PROXY) excepted; one
   * more is answered 429 client_connection_limit_reached.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000000)
  MAX_CONNECTIONS_PER_CLIENT = 256;

  /**
   * Connections one client address opens a second (bursts of twice as many), a trusted proxy excepted; one more is
   * answered 429 client_connection_limit_reached at connect.
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000000)
  MAX_NEW_CONNECTIONS_PER_CLIENT_PER_SECOND = 100;

  /** Request-body bytes one instance holds at once, all clients together; past it 503 body_limit_reached. */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024 * 1024)
  MAX_BODY_BYTES_IN_FLIGHT = 64 * 1024 * 1024;

  /** Request-body bytes one client address holds at once on an instance; past it 429 client_body_limit_reached. */
  @EnvNumber()
  @IsInt()
  @Min(1024)
  @Max(16 * 1024 * 1024 * 1024)
  MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT = 4 * 1024 * 1024;

  /** API requests from one client address that may fail authentication per minute before it is throttled (429). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000000)
  AUTH_FAILURES_PER_MINUTE = 60;

  /**
   * Which proxies in front of the gateway to believe about the client's address (X-Forwarded-For), for the
   * throttle of failed authentication: empty (none: the socket's peer is the client), a hop count, or a comma list
   * of proxy addresses or CIDRs.
   */
  @Matches(/^(|\d{1,2}|[0-9A-Fa-f.:/]+(,\s*[0-9A-Fa-f.:/]+)*)$/, {
    message: 'TRUST_PROXY must be empty, a hop count, or a comma list of proxy addresses or CIDRs',
  })
  TRUST_PROXY = '';

  /** How long an Idempotency-Key is remembered (spec: at least 24 h). */
  @EnvNumber()
  @IsInt()
  @Min(24)
  @Max(24 * 365)
  IDEMPOTENCY_RETENTION_HOURS = 24;

  /** After this long without completion an in-progress idempotent request is treated as abandoned. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(3600)
  IDEMPOTENCY_LEASE_SECONDS = 120;

  /** Deadline for a feature's reply on the bus; quote waits up to 18 s for providers by contract. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(120000)
  BUS_REQUEST_TIMEOUT_MS = 30000;

  /** How long a quote may be prepared (expiresAt − quote time), capped by the providers' own deadlines. */
  @EnvNumber()
  @IsInt()
  @Min(5)
  @Max(3600)
  QUOTE_TTL_SECONDS = 60;

  /** Route-evaluation budget when a quote request names no maxWaitMs (the spec allows 1000 to 18000). */
  @EnvNumber()
  @IsInt()
  @Min(1000)
  @Max(18000)
  QUOTE_MAX_WAIT_MS = 8000;

  /**
   * Quote calls in flight at once per provider, across every request, handed out in turn between requests (so one
   * large quote cannot starve the others, nor a burst overload a provider).
   */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(4096)
  QUOTE_PROVIDER_CONCURRENCY = 64;

  /**
   * `false`: quotes carry no `sourceGas` and excludeUneconomicSources leaves nothing out (docs/source-economics.md);
   * saves one eth_simulateV1 and the allowance reads per source chain per quote.
   */
  @IsEnvBoolean()
  QUOTE_SOURCE_GAS = true;

  /** How long one chain's base fee and tip are reused by quotes' source gas (about one L2 block). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(60000)
  QUOTE_FEE_DATA_MAX_AGE_MS = 1000;

  /** The service's base rate in bps, passed to providers with the partner's feeBps markup. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(1000)
  SERVICE_FEE_BPS = 0;

  /** EVM address receiving the combined app fee; required when any fee can be non-zero. */
  @IsOptional()
  @Matches(/^0x[0-9a-fA-F]{40}$/, { message: 'SERVICE_FEE_RECIPIENT must be an EVM address' })
  SERVICE_FEE_RECIPIENT?: string;

  /** Initial evidence must arrive within this after prepare (or the providers' own deadlines if sooner). */
  @EnvNumber()
  @IsInt()
  @Min(60)
  @Max(86400)
  EVIDENCE_WINDOW_SECONDS = 900;

  /** Validity of the wallet authorization (its message.expiresAt), much longer than the 30 s signable window. */
  @EnvNumber()
  @IsInt()
  @Min(300)
  @Max(30 * 86400)
  AUTHORIZATION_TTL_SECONDS = 86400;

  /** Provider quotes older than this are quoted again at prepare (the minimum output may not drop). */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(3600)
  QUOTE_FRESHNESS_SECONDS = 30;

  /** How often the settlement tracker looks at the attempts of its shards (0 = only on demand, for tests). */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(60000)
  SETTLEMENT_TICK_MS = 250;

  /** No terminal outcome this long after prepare → failed with settlement_timeout. */
  @EnvNumber()
  @IsInt()
  @Min(60)
  @Max(7 * 86400)
  SETTLEMENT_TRACKING_LIMIT_SECONDS = 7200;

  /** Attempts one tracker instance works at once. */
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(1000)
  SETTLEMENT_CONCURRENCY = 16;

  /** One attempt's run holds a place in the tracker's pool at most this long. */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(600000)
  SETTLEMENT_ATTEMPT_BUDGET_MS = 20000;

  /** A leg is shown `delayed` this long after its provider's expected fill time. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(86400)
  SETTLEMENT_DELAY_MARGIN_SECONDS = 60;

  /** How often the webhook dispatcher looks for due retries (new events of its shards are sent at once); 0 = on demand. */
  @EnvNumber()
  @IsInt()
  @Min(0)
  @Max(60000)
  WEBHOOK_TICK_MS = 1000;

  /** One webhook try's timeout (spec decision: 15 s). */
  @EnvNumber()
  @IsInt()
  @Min(100)
  @Max(60000)
  WEBHOOK_TIMEOUT_MS = 15000;

  /**
   * Days every webhook delivery try stays listed before an ended event's tries are compacted into counts
   * (docs/webhooks.md "Retention"). The control plane promises partners 30: less is refused at boot.
   */
  @EnvNumber()
  @IsInt({ message: 'WEBHOOK_HISTORY_RETENTION_DAYS must be a whole number of days' })
  @Min(30, {
    message:
      'WEBHOOK_HISTORY_RETENTION_DAYS must be at least 30: partners are promised 30 days of webhook delivery history',
  })
  @Max(36500)
  WEBHOOK_HISTORY_RETENTION_DAYS = 30;

  /**
   * The addresses webhooks may be sent to besides public ones (comma-separated IPs or CIDRs; docs/webhooks.md
   * "Where webhooks may go"). Unset: none with NODE_ENV=production, loopback (127.0.0.0/8, ::1) otherwise. Loopback,
   * private, link-local, shared, unique-local and metadata addresses are refused unless listed here.
   */
  @IsOptional()
  @IsString()
  WEBHOOK_ALLOWED_ADDRESSES?: string;
}
