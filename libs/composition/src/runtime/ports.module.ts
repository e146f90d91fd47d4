import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import {
  EVENT_STORE,
  type EventStore,
  openReadModelDatabase,
  projectionsCatchingUp,
  READ_MODELS,
  type ReadModelDb,
  watchWrites,
  writeHealthOf,
} from '@svc/event-store';
import { ChainSourceGasEstimator, EXECUTION_OPTIONS } from '@svc/execution';
import {
  eventStoreRequestRecords,
  GATEWAY_LOGGER,
  GATEWAY_OPTIONS,
  REQUEST_RECORDS,
  type RequestRecords,
} from '@svc/gateway';
import { WORK_SHARING } from '@svc/leases';
import { MESSAGE_BUS, type MessageBus } from '@svc/messaging';
import {
  CLOCK,
  type Clock,
  type Logger,
  PARTNER_DIRECTORY,
  type PartnerConfig,
  PartnerDirectory,
} from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { QUOTING_OPTIONS, SOURCE_GAS_ESTIMATOR } from '@svc/quoting';
import { SETTLEMENT_OPTIONS } from '@svc/settlement';
import { WEBHOOKS_OPTIONS } from '@svc/webhooks';
import { type AppConfig } from '../config/app-config';
import { READINESS_CHECKS, READINESS_PROBE, type ReadinessCheck, ReadinessProbe } from '../ops/readiness';

/** Everything a composition binds for the feature modules: the ports and each feature's options. */
export interface Ports {
  /** The typed configuration (loadAppConfig): each feature's options, and this instance's share of the work. */
  config: AppConfig;
  partners: PartnerConfig[];
  store: EventStore;
  /**
   * The gateway's nonce and Idempotency-Key records (openRequestRecords). Absent: streams in `store`, as for a
   * composition handed a store it did not open from the configuration (tests).
   */
  records?: RequestRecords;
  /**
   * The read models' database (openReadModels). Absent: one in memory, as for a composition handed a store it did
   * not open from the configuration (tests).
   */
  readModels?: ReadModelDb;
  bus: MessageBus;
  chains: ChainRegistry;
  providers: Record<RoutableProvider, ProviderAdapter>;
  logger: Logger;
  clock: Clock;
  readiness: ReadinessCheck[];
}

/**
 * A global module providing every port and option token, so each feature module (and the gateway) finds what it
 * injects whichever app composes it. Shared by the one-process service and the five distributed apps.
 */
export function portsModule(ports: Ports): DynamicModule {
  const { config } = ports;
  // Every append through the features watched for /readyz (the composition root's store already is: watchWrites).
  const store = watchWrites(ports.store);
  const readModels = ports.readModels ?? openReadModelDatabase(':memory:');
  const readiness = [...ports.readiness, ...stateChecks(store, readModels)];
  const providers = [
    { provide: EVENT_STORE, useValue: store },
    { provide: READ_MODELS, useValue: readModels },
    {
      provide: REQUEST_RECORDS,
      useValue:
        ports.records ??
        eventStoreRequestRecords(store, {
          idempotencyRetentionSeconds: config.gateway.idempotencyRetentionHours * 3600,
          clock: ports.clock,
        }),
    },
    { provide: PARTNER_DIRECTORY, useValue: new PartnerDirectory(ports.partners) },
    { provide: MESSAGE_BUS, useValue: ports.bus },
    { provide: CLOCK, useValue: ports.clock },
    { provide: READINESS_CHECKS, useValue: readiness },
    { provide: READINESS_PROBE, useValue: new ReadinessProbe(readiness) },
    { provide: WORK_SHARING, useValue: config.work },
    { provide: GATEWAY_OPTIONS, useValue: config.gateway },
    { provide: GATEWAY_LOGGER, useValue: ports.logger },
    { provide: EXECUTION_OPTIONS, useValue: config.execution },
    { provide: SETTLEMENT_OPTIONS, useValue: config.settlement },
    { provide: WEBHOOKS_OPTIONS, useValue: config.webhooks },
    { provide: QUOTING_OPTIONS, useValue: config.quoting },
    ...(config.quoting.sourceGas === false
      ? []
      : [
          {
            provide: SOURCE_GAS_ESTIMATOR,
            useValue: new ChainSourceGasEstimator(ports.chains, {
              feeDataMaxAgeMs: config.quoting.feeDataMaxAgeMs,
            }),
          },
        ]),
    { provide: CHAIN_REGISTRY, useValue: ports.chains },
    { provide: PROVIDER_ADAPTERS, useValue: ports.providers },
  ];

  @Global()
  @Module({})
  class PortsModule {}

  return { module: PortsModule, providers, exports: providers.map((p) => p.provide) };
}

/**
 * What /readyz asks of every app besides its dependencies' reachability (security review N-L7): that writes to the
 * event store succeed (the adapter's write probe, and no append failing since the last that succeeded), and that the
 * read models started in this process (lookups, the webhook index) caught up once since start: until then a query of
 * theirs waits for that catch-up, up to the bus deadline.
 */
function stateChecks(store: EventStore, readModels: ReadModelDb): ReadinessCheck[] {
  const writes = writeHealthOf(store);
  return [
    { name: 'eventStoreWrites', check: () => writes.check(), failure: 'failing' },
    {
      name: 'readModels',
      failure: 'catching_up',
      check: () => {
        const behind = projectionsCatchingUp(readModels);
        return behind.length === 0
          ? Promise.resolve()
          : Promise.reject(new Error(`catching up: ${behind.join(', ')}`));
      },
    },
  ];
}
