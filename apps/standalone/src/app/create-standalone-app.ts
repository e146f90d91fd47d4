import { type DynamicModule, Global, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CHAIN_REGISTRY, ChainRegistry } from '@svc/chains';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { DEFAULT_EXECUTION_OPTIONS, EXECUTION_OPTIONS, ExecutionModule } from '@svc/execution';
import {
  accessLog,
  apiVersionHeader,
  GATEWAY_LOGGER,
  GATEWAY_OPTIONS,
  type GatewayOptions,
  GatewayModule,
} from '@svc/gateway';
import {
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  MESSAGE_BUS,
  NestMessageBus,
} from '@svc/messaging';
import {
  PARTNER_DIRECTORY,
  CLOCK,
  type Clock,
  type Logger,
  NestPinoLogger,
  type PartnerConfig,
  PartnerDirectory,
  type ServiceEnv,
  systemClock,
} from '@svc/platform';
import {
  createProviderAdapters,
  loadProvidersConfig,
  PROVIDER_ADAPTERS,
  type ProviderAdapter,
  type RoutableProvider,
} from '@svc/providers';
import { QUOTING_OPTIONS, QuotingModule } from '@svc/quoting';
import { DEFAULT_SETTLEMENT_OPTIONS, SETTLEMENT_OPTIONS, SettlementModule } from '@svc/settlement';
import { DEFAULT_WEBHOOKS_OPTIONS, WEBHOOKS_OPTIONS, WebhooksModule } from '@svc/webhooks';

export const STANDALONE_FEATURES: Type[] = [QuotingModule, ExecutionModule, SettlementModule, WebhooksModule];

export interface StandaloneDeps {
  env: ServiceEnv;
  partners: PartnerConfig[];
  store: EventStore;
  /** The chains the service reads; default: none. */
  chains?: ChainRegistry;
  /** Provider adapters; default: the real providers' production APIs (nothing is called until a quote). */
  providers?: Record<RoutableProvider, ProviderAdapter>;
  logger: Logger;
  clock?: Clock;
  /** The feature modules composed in; all of them unless a test narrows it. */
  features?: Type[];
}

/**
 * The one-process composition (ARCHITECTURE.md): the gateway and every feature module in one Nest app, an
 * in-process bus between them, the event store the caller opened. Returns the app, not yet listening.
 */
export async function createStandaloneApp(deps: StandaloneDeps): Promise<INestApplication> {
  const broker = new InProcessBroker();
  const options: GatewayOptions = {
    maxBodyBytes: deps.env.MAX_BODY_BYTES,
    idempotencyRetentionHours: deps.env.IDEMPOTENCY_RETENTION_HOURS,
    idempotencyLeaseSeconds: deps.env.IDEMPOTENCY_LEASE_SECONDS,
    busRequestTimeoutMs: deps.env.BUS_REQUEST_TIMEOUT_MS,
  };

  @Global()
  @Module({})
  class PortsModule {
    static bind(): DynamicModule {
      const providers = [
        { provide: EVENT_STORE, useValue: deps.store },
        { provide: PARTNER_DIRECTORY, useValue: new PartnerDirectory(deps.partners) },
        { provide: MESSAGE_BUS, useValue: new NestMessageBus(new InProcessClient(broker)) },
        { provide: CLOCK, useValue: deps.clock ?? systemClock },
        { provide: GATEWAY_OPTIONS, useValue: options },
        { provide: GATEWAY_LOGGER, useValue: deps.logger },
        {
          provide: EXECUTION_OPTIONS,
          useValue: {
            ...DEFAULT_EXECUTION_OPTIONS,
            evidenceWindowSeconds: deps.env.EVIDENCE_WINDOW_SECONDS,
            authorizationTtlSeconds: deps.env.AUTHORIZATION_TTL_SECONDS,
            quoteFreshnessSeconds: deps.env.QUOTE_FRESHNESS_SECONDS,
          },
        },
        {
          provide: SETTLEMENT_OPTIONS,
          useValue: {
            ...DEFAULT_SETTLEMENT_OPTIONS,
            tickMs: deps.env.SETTLEMENT_TICK_MS,
            trackingLimitMs: deps.env.SETTLEMENT_TRACKING_LIMIT_SECONDS * 1000,
            pollMinMs: Math.min(
              DEFAULT_SETTLEMENT_OPTIONS.pollMinMs,
              Math.max(50, deps.env.SETTLEMENT_TICK_MS),
            ),
          },
        },
        {
          provide: WEBHOOKS_OPTIONS,
          useValue: {
            ...DEFAULT_WEBHOOKS_OPTIONS,
            tickMs: deps.env.WEBHOOK_TICK_MS,
            timeoutMs: deps.env.WEBHOOK_TIMEOUT_MS,
          },
        },
        {
          provide: QUOTING_OPTIONS,
          useValue: {
            quoteTtlSeconds: deps.env.QUOTE_TTL_SECONDS,
            defaultMaxWaitMs: deps.env.QUOTE_MAX_WAIT_MS,
            serviceFeeBps: deps.env.SERVICE_FEE_BPS,
            serviceFeeRecipient: deps.env.SERVICE_FEE_RECIPIENT ?? null,
          },
        },
        { provide: CHAIN_REGISTRY, useValue: deps.chains ?? new ChainRegistry([]) },
        {
          provide: PROVIDER_ADAPTERS,
          useValue: deps.providers ?? createProviderAdapters(loadProvidersConfig({})),
        },
      ];
      return { module: PortsModule, providers, exports: providers.map((p) => p.provide) };
    }
  }

  @Module({
    imports: [PortsModule.bind(), GatewayModule.register(), ...(deps.features ?? STANDALONE_FEATURES)],
  })
  class StandaloneModule {}

  const app = await NestFactory.create(StandaloneModule, {
    bodyParser: false, // the gateway reads and hashes the exact raw bytes itself
    logger: new NestPinoLogger(deps.logger),
  });
  app.use(apiVersionHeader);
  app.use(accessLog(deps.logger));
  (app.getHttpAdapter().getInstance() as { disable(name: string): void }).disable('x-powered-by');
  app.connectMicroservice({ strategy: new InProcessServer(broker) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  return app;
}
