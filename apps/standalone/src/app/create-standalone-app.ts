import { type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ChainRegistry } from '@svc/chains';
import { type AppConfig, BusHandlerInterceptor, opsControllers, portsModule } from '@svc/composition';
import { type EventStore, type ReadModelDb } from '@svc/event-store';
import { ExecutionModule } from '@svc/execution';
import { createHttpEdge, GatewayModule, type RequestRecords } from '@svc/gateway';
import { InProcessBroker, InProcessClient, InProcessServer, NestMessageBus } from '@svc/messaging';
import { type Clock, type Logger, NestPinoLogger, type PartnerConfig, systemClock } from '@svc/platform';
import { createProviderAdapters, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { QuotingModule } from '@svc/quoting';
import { SettlementModule } from '@svc/settlement';
import { WebhooksModule } from '@svc/webhooks';

export const STANDALONE_FEATURES: Type[] = [QuotingModule, ExecutionModule, SettlementModule, WebhooksModule];

export interface StandaloneDeps {
  /** The typed configuration (loadAppConfig). */
  config: AppConfig;
  partners: PartnerConfig[];
  store: EventStore;
  /** The gateway's nonce and Idempotency-Key records (openRequestRecords); default: streams in `store`. */
  records?: RequestRecords;
  /** The read models' database (openReadModels); default: one in memory. */
  readModels?: ReadModelDb;
  /** The chains the service reads; default: none. */
  chains?: ChainRegistry;
  /** Provider adapters; default: the configured providers (nothing is called until a quote). */
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
  const { config } = deps;

  @Module({
    imports: [
      portsModule({
        config,
        partners: deps.partners,
        store: deps.store,
        records: deps.records,
        readModels: deps.readModels,
        bus: new NestMessageBus(new InProcessClient(broker)),
        chains: deps.chains ?? new ChainRegistry([]),
        providers: deps.providers ?? createProviderAdapters(config.providers),
        logger: deps.logger,
        clock: deps.clock ?? systemClock,
        readiness: [{ name: 'eventStore', check: () => deps.store.ping() }],
      }),
      GatewayModule.register(),
      ...(deps.features ?? STANDALONE_FEATURES),
    ],
    controllers: opsControllers(config, true),
  })
  class StandaloneModule {}

  const edge = createHttpEdge({
    logger: deps.logger,
    maxBodyBytes: config.gateway.maxBodyBytes,
    apiVersionHeader: true,
    limits: config.http.limits,
    unauthenticatedRateLimitPerMinute: config.http.unauthenticatedRateLimitPerMinute,
    trustProxy: config.http.trustProxy,
    now: () => (deps.clock ?? systemClock).now(),
  });
  const app = await NestFactory.create(StandaloneModule, edge, {
    bodyParser: false, // the edge hands the gateway the exact raw bytes, which it hashes
    logger: new NestPinoLogger(deps.logger),
  });
  // Requests are aged on the clock the gateway stamps them with (receivedAt): the service's own. The wall clock here
  // dropped every request as past its deadline whenever the service clock ran 30 s or more behind it (issue 24).
  app.useGlobalInterceptors(
    new BusHandlerInterceptor(config.bus.requestTimeoutMs, deps.logger, () =>
      (deps.clock ?? systemClock).now(),
    ),
  );
  app.connectMicroservice({ strategy: new InProcessServer(broker) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  return app;
}
