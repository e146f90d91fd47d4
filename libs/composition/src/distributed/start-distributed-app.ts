import { type INestApplication, Logger, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type EventStore, type ReadModelDb } from '@svc/event-store';
import { createHttpEdge, type RequestRecords } from '@svc/gateway';
import {
  BusKafkaServer,
  createKafkaClient,
  createKafkaMessageBus,
  createKafkaProbe,
  type KafkaBusConfig,
  type MessageBus,
  type MessagePatternName,
} from '@svc/messaging';
import { NestPinoLogger, systemClock, startTracing } from '@svc/platform';
import { createProviderAdapters } from '@svc/providers';
import { type OpsServer } from '../ops/ops-server';
import { listenOps, opsControllers } from '../ops/ops-wiring';
import { READINESS_PROBE, type ReadinessProbe } from '../ops/readiness';
import { BusHandlerInterceptor } from '../runtime/bus-handler.interceptor';
import { loadRuntime, type Runtime } from '../runtime/load-runtime';
import { openEventStore } from '../runtime/open-event-store';
import { openReadModels } from '../runtime/open-read-models';
import { openRequestRecords } from '../runtime/open-request-records';
import { portsModule } from '../runtime/ports.module';
import { LocalPatternsBus } from './local-patterns-bus';

/** One of the five apps of the distributed composition (ARCHITECTURE.md), each its own process and Deployment. */
export interface DistributedAppSpec {
  /** `gateway`, `quoting`, `execution`, `settlement-tracker` or `webhook-dispatcher`: names its consumer groups. */
  name: string;
  /** The app's module: the feature modules it runs. */
  module: Type;
  /** Serves bus requests or events (a Kafka consumer group `<prefix>.<name>`). */
  servesBus: boolean;
  /** Sends bus requests or events (a Kafka producer, and a reply consumer for requests). */
  sendsOnBus: boolean;
  /** The public API edge: the X-Service-Api-Version header on every response. */
  publicApi?: boolean;
  /**
   * Request patterns this app serves itself, with handlers its module composes (read-only queries: the gateway's
   * SETTLEMENT_QUERY_PATTERNS): its requests of them go through an in-process broker, never over Kafka. Only for an
   * app that sends on the bus and serves nothing over Kafka.
   */
  servesLocally?: readonly MessagePatternName[];
}

export interface RunningDistributedApp {
  app: INestApplication;
  url: string;
  /** The ops listener of the gateway (OPS_PORT); the other apps serve the probes on `url`. */
  opsUrl: string;
  runtime: Runtime;
  stop(): Promise<void>;
}

/**
 * Boots one distributed app from its environment: validates every setting (a ConfigError names the bad one), opens
 * the event store (SQLite or EventStoreDB: separate processes cannot share the memory store), connects to Kafka,
 * serves /healthz, /readyz (event store and bus) and /metrics on PORT (the gateway: /readyz and /metrics on OPS_PORT
 * unless OPS_ON_API_PORT=true), and its bus handlers under a deadline.
 */
export async function startDistributedApp(
  spec: DistributedAppSpec,
  environment: NodeJS.ProcessEnv,
): Promise<RunningDistributedApp> {
  const runtime = loadRuntime(environment, spec.name, { distributed: true });
  const { config, logger } = runtime;
  // First, so that everything after runs traced; shut down last, once the app has stopped (closers run reversed).
  const tracing = startTracing(config.tracing);
  const kafka = config.bus.kafka;
  // Nest components created outside the app (the Kafka client) log through the static Logger: JSON too.
  Logger.overrideLogger(new NestPinoLogger(logger));
  const store = openEventStore(config.store);
  // Only the public edge records nonces and Idempotency-Keys.
  const records = spec.publicApi ? openRequestRecords(config, store) : undefined;
  const readModels = openReadModels(config.store, logger, config.work.instanceId);
  const probe = createKafkaProbe(kafka);
  const closers: (() => Promise<unknown>)[] = [
    () => tracing.shutdown(),
    () => probe.close(),
    () => store.close(),
    () => (records ? records.close() : Promise.resolve()),
    () => readModels.close(),
    () => runtime.chains.close(),
  ];
  const closeAll = async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
  };
  try {
    if (spec.servesLocally?.length && (spec.servesBus || !spec.sendsOnBus)) {
      throw new Error(
        `the ${spec.name} app serves patterns locally only if it sends on the bus and serves none`,
      );
    }
    const remote = spec.sendsOnBus ? await connectBus(kafka, spec.name, closers) : noBus(spec.name);
    const local = spec.servesLocally?.length ? new LocalPatternsBus(spec.servesLocally, remote) : null;
    const bus = local?.bus ?? remote;
    const server = spec.servesBus ? new BusKafkaServer(kafka, spec.name) : null;
    const pingBus = async () => {
      await probe.ping();
      server?.assertConsuming();
    };
    const app = await createApp(spec, runtime, store, records, readModels.db, bus, pingBus);
    if (server) app.connectMicroservice({ strategy: server }, { inheritAppConfig: true });
    local?.serveWith(app);
    // The ops listener closes after the app: /readyz answers 503 (draining) while in-flight requests finish.
    let ops: OpsServer | undefined;
    closers.push(async () => {
      app.get<symbol, ReadinessProbe>(READINESS_PROBE).drain();
      await app.close();
      await ops?.close();
    });
    if (server || local) await app.startAllMicroservices();
    local?.assertServed();
    await app.listen(config.http.port, config.http.host);
    const url = (await app.getUrl()).replace('[::1]', 'localhost');
    let opsUrl = url;
    if (spec.publicApi) {
      ops = await listenOps(app, config, logger);
      opsUrl = ops.url;
    }
    logger.info(
      {
        url,
        opsUrl,
        instance: config.work.instanceId,
        eventStore: config.store.kind,
        tracing: tracing.enabled,
      },
      `${spec.name} started`,
    );
    return { app, url, opsUrl, runtime, stop: closeAll };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

async function createApp(
  spec: DistributedAppSpec,
  runtime: Runtime,
  store: EventStore,
  records: RequestRecords | undefined,
  readModels: ReadModelDb,
  bus: MessageBus,
  pingBus: () => Promise<void>,
): Promise<INestApplication> {
  const { config, logger } = runtime;
  @Module({
    imports: [
      portsModule({
        config,
        partners: runtime.partners,
        store,
        records,
        readModels,
        bus,
        chains: runtime.chains,
        providers: createProviderAdapters(config.providers),
        logger,
        clock: systemClock,
        readiness: [
          { name: 'eventStore', check: () => store.ping() },
          { name: 'bus', check: pingBus },
        ],
      }),
      spec.module,
    ],
    controllers: opsControllers(config, spec.publicApi ?? false),
  })
  class DistributedAppModule {}

  const edge = createHttpEdge({
    logger,
    maxBodyBytes: config.gateway.maxBodyBytes,
    apiVersionHeader: spec.publicApi ?? false,
    limits: config.http.limits,
    unauthenticatedRateLimitPerMinute: config.http.unauthenticatedRateLimitPerMinute,
    trustProxy: config.http.trustProxy,
  });
  const app = await NestFactory.create(DistributedAppModule, edge, {
    bodyParser: false, // the edge hands the gateway the exact raw bytes, which it hashes
    logger: new NestPinoLogger(logger),
  });
  app.useGlobalInterceptors(new BusHandlerInterceptor(config.bus.requestTimeoutMs, logger));
  return app;
}

async function connectBus(
  kafka: KafkaBusConfig,
  name: string,
  closers: (() => Promise<unknown>)[],
): Promise<MessageBus> {
  const client = createKafkaClient(kafka, name);
  closers.push(() => client.close());
  return createKafkaMessageBus(client, kafka.topicPrefix);
}

/** The bus of an app that only serves: sending from it is a wiring mistake, reported as such. */
function noBus(name: string): MessageBus {
  const refuse = () => Promise.reject(new Error(`the ${name} app sends nothing on the bus`));
  return { request: refuse, emit: refuse };
}
