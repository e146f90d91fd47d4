import { type DynamicModule, Global, Module } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { DEFAULT_EXECUTION_OPTIONS, EXECUTION_OPTIONS } from '@svc/execution';
import { GATEWAY_LOGGER, GATEWAY_OPTIONS, type GatewayOptions } from '@svc/gateway';
import { MESSAGE_BUS, type MessageBus } from '@svc/messaging';
import {
  CLOCK,
  type Clock,
  type Logger,
  PARTNER_DIRECTORY,
  type PartnerConfig,
  PartnerDirectory,
  type ServiceEnv,
} from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { QUOTING_OPTIONS } from '@svc/quoting';
import { DEFAULT_SETTLEMENT_OPTIONS, SETTLEMENT_OPTIONS } from '@svc/settlement';
import { DEFAULT_WEBHOOKS_OPTIONS, WEBHOOKS_OPTIONS } from '@svc/webhooks';
import { READINESS_CHECKS, type ReadinessCheck } from '../ops/readiness';
import { WORK_SHARING, type WorkSharing } from '@svc/event-store';

/** Everything a composition binds for the feature modules: the ports and each feature's options. */
export interface Ports {
  env: ServiceEnv;
  partners: PartnerConfig[];
  store: EventStore;
  bus: MessageBus;
  chains: ChainRegistry;
  providers: Record<RoutableProvider, ProviderAdapter>;
  logger: Logger;
  clock: Clock;
  /** How this instance shares background work with the others on the same store. */
  workSharing: WorkSharing;
  readiness: ReadinessCheck[];
}

/**
 * A global module providing every port and option token, so each feature module (and the gateway) finds what it
 * injects whichever app composes it. Shared by the one-process service and the five distributed apps.
 */
export function portsModule(ports: Ports): DynamicModule {
  const { env } = ports;
  const gatewayOptions: GatewayOptions = {
    maxBodyBytes: env.MAX_BODY_BYTES,
    idempotencyRetentionHours: env.IDEMPOTENCY_RETENTION_HOURS,
    idempotencyLeaseSeconds: env.IDEMPOTENCY_LEASE_SECONDS,
    busRequestTimeoutMs: env.BUS_REQUEST_TIMEOUT_MS,
  };
  const providers = [
    { provide: EVENT_STORE, useValue: ports.store },
    { provide: PARTNER_DIRECTORY, useValue: new PartnerDirectory(ports.partners) },
    { provide: MESSAGE_BUS, useValue: ports.bus },
    { provide: CLOCK, useValue: ports.clock },
    { provide: READINESS_CHECKS, useValue: ports.readiness },
    { provide: WORK_SHARING, useValue: ports.workSharing },
    { provide: GATEWAY_OPTIONS, useValue: gatewayOptions },
    { provide: GATEWAY_LOGGER, useValue: ports.logger },
    {
      provide: EXECUTION_OPTIONS,
      useValue: {
        ...DEFAULT_EXECUTION_OPTIONS,
        evidenceWindowSeconds: env.EVIDENCE_WINDOW_SECONDS,
        authorizationTtlSeconds: env.AUTHORIZATION_TTL_SECONDS,
        quoteFreshnessSeconds: env.QUOTE_FRESHNESS_SECONDS,
      },
    },
    {
      provide: SETTLEMENT_OPTIONS,
      useValue: {
        ...DEFAULT_SETTLEMENT_OPTIONS,
        tickMs: env.SETTLEMENT_TICK_MS,
        trackingLimitMs: env.SETTLEMENT_TRACKING_LIMIT_SECONDS * 1000,
        pollMinMs: Math.min(DEFAULT_SETTLEMENT_OPTIONS.pollMinMs, Math.max(50, env.SETTLEMENT_TICK_MS)),
        concurrency: env.SETTLEMENT_CONCURRENCY,
        attemptBudgetMs: env.SETTLEMENT_ATTEMPT_BUDGET_MS,
        delayMarginMs: env.SETTLEMENT_DELAY_MARGIN_SECONDS * 1000,
      },
    },
    {
      provide: WEBHOOKS_OPTIONS,
      useValue: {
        ...DEFAULT_WEBHOOKS_OPTIONS,
        tickMs: env.WEBHOOK_TICK_MS,
        timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      },
    },
    {
      provide: QUOTING_OPTIONS,
      useValue: {
        quoteTtlSeconds: env.QUOTE_TTL_SECONDS,
        defaultMaxWaitMs: env.QUOTE_MAX_WAIT_MS,
        serviceFeeBps: env.SERVICE_FEE_BPS,
        serviceFeeRecipient: env.SERVICE_FEE_RECIPIENT ?? null,
      },
    },
    { provide: CHAIN_REGISTRY, useValue: ports.chains },
    { provide: PROVIDER_ADAPTERS, useValue: ports.providers },
  ];

  @Global()
  @Module({})
  class PortsModule {}

  return { module: PortsModule, providers, exports: providers.map((p) => p.provide) };
}
