import { type DynamicModule, Global, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { CHAIN_REGISTRY, ChainRegistry } from '@svc/chains';
import { loadAppConfig } from '@svc/composition';
import { EVENT_STORE, type EventStore, openReadModelDatabase, READ_MODELS } from '@svc/event-store';
import { WORK_SHARING } from '@svc/leases';
import {
  InProcessBroker,
  InProcessClient,
  InProcessServer,
  MESSAGE_BUS,
  NestMessageBus,
} from '@svc/messaging';
import { CLOCK, PARTNER_DIRECTORY, type PartnerConfig, PartnerDirectory, systemClock } from '@svc/platform';
import { WEBHOOKS_OPTIONS, type WebhooksOptions, WebhooksModule } from '@svc/webhooks';

/**
 * The webhook half of the standalone composition (apps/standalone create-standalone-app.ts) rebuilt from libs: the
 * outbox relay and the dispatcher of WebhooksModule over an in-process bus and the given event store. No gateway,
 * no other feature modules; the app is initialised but does not listen on HTTP.
 */
export async function createWebhookPipeline(deps: {
  store: EventStore;
  partners: PartnerConfig[];
  options: WebhooksOptions;
}): Promise<INestApplication> {
  const broker = new InProcessBroker();

  @Global()
  @Module({})
  class BenchPortsModule {
    static bind(): DynamicModule {
      const providers = [
        { provide: EVENT_STORE, useValue: deps.store },
        { provide: READ_MODELS, useValue: openReadModelDatabase(':memory:') },
        { provide: PARTNER_DIRECTORY, useValue: new PartnerDirectory(deps.partners) },
        { provide: MESSAGE_BUS, useValue: new NestMessageBus(new InProcessClient(broker)) },
        { provide: CLOCK, useValue: systemClock },
        { provide: CHAIN_REGISTRY, useValue: new ChainRegistry([]) },
        { provide: WEBHOOKS_OPTIONS, useValue: deps.options },
        // One instance holding every shard, with the service's default shard count and lease TTL.
        { provide: WORK_SHARING, useValue: loadAppConfig({}).work },
      ];
      return { module: BenchPortsModule, providers, exports: providers.map((p) => p.provide) };
    }
  }

  @Module({ imports: [BenchPortsModule.bind(), WebhooksModule] })
  class BenchWebhooksModule {}

  // Fastify, the service's only HTTP adapter (ADR 0006): the bench serves no route, but Nest needs an adapter.
  const app = await NestFactory.create(BenchWebhooksModule, new FastifyAdapter(), {
    logger: ['error', 'warn'],
  });
  app.connectMicroservice({ strategy: new InProcessServer(broker) }, { inheritAppConfig: true });
  await app.startAllMicroservices();
  await app.init();
  return app;
}
