import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type INestApplication, type Type } from '@nestjs/common';
import { type ChainRegistry } from '@svc/chains';
import { type ProviderName } from '@svc/contract';
import { createProviderAdapters, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { type EventStore, MemoryEventStore } from '@svc/event-store';
import { listenOps, loadAppConfig } from '@svc/composition';
import { type Clock, createLogger, type PartnerConfig } from '@svc/platform';
import { type TestPartner } from '@svc/testing';
import { createStandaloneApp } from '../app/create-standalone-app';

const base = {
  callbackUrl: 'http://127.0.0.1:9/hooks',
  maxFeeBps: 300,
  allowedProviders: ['relay', 'across', 'mayan'] as ProviderName[],
  rateLimitPerMinute: 10_000,
  enabled: true,
};

export const PARTNERS = {
  v2: { ...base, partnerId: 'partner-v2', secret: 'secret-v2-0123456789abcdef', authVersion: 2 },
  v1: { ...base, partnerId: 'partner-v1', secret: 'secret-v1-0123456789abcdef', authVersion: 1 },
  other: { ...base, partnerId: 'partner-other', secret: 'secret-other-0123456789ab', authVersion: 2 },
  disabled: {
    ...base,
    partnerId: 'partner-off',
    secret: 'secret-off-0123456789abcd',
    authVersion: 2,
    enabled: false,
  },
  limited: {
    ...base,
    partnerId: 'partner-limited',
    secret: 'secret-lim-0123456789abcd',
    authVersion: 2,
    rateLimitPerMinute: 2,
  },
} satisfies Record<string, PartnerConfig & TestPartner>;

/** Receives app fees in tests. */
export const TEST_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/**
 * Providers at a loopback port nobody listens on: tests never reach the internet, and a quote without a
 * sandbox answers at once with provider_unavailable.
 */
export const UNREACHABLE_PROVIDERS_ENV = {
  RELAY_BASE_URL: 'http://127.0.0.1:9/relay',
  ACROSS_BASE_URL: 'http://127.0.0.1:9/across',
  MAYAN_PRICE_URL: 'http://127.0.0.1:9/mayan-price',
  MAYAN_EXPLORER_URL: 'http://127.0.0.1:9/mayan-explorer',
};

export interface TestApp {
  app: INestApplication;
  port: number;
  /** The ops listener (/healthz, /readyz, /metrics), on a port of its own. */
  opsPort: number;
  store: EventStore;
  close(): Promise<void>;
}

/** The real standalone composition on a loopback port, with test partners and the given store. */
export async function startTestApp(
  options: {
    store?: EventStore;
    clock?: Clock;
    features?: Type[];
    env?: Record<string, string>;
    providers?: Record<RoutableProvider, ProviderAdapter>;
    chains?: ChainRegistry;
    partners?: PartnerConfig[];
  } = {},
): Promise<TestApp> {
  const store = options.store ?? new MemoryEventStore();
  const config = loadAppConfig({
    LOG_LEVEL: 'silent',
    SERVICE_FEE_RECIPIENT: TEST_FEE_RECIPIENT,
    ...UNREACHABLE_PROVIDERS_ENV,
    ...options.env,
  });
  const app = await createStandaloneApp({
    config,
    partners: options.partners ?? Object.values(PARTNERS),
    store,
    logger: createLogger({ level: 'silent', name: 'test' }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.features ? { features: options.features } : {}),
    providers: options.providers ?? createProviderAdapters(config.providers),
    ...(options.chains ? { chains: options.chains } : {}),
  });
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as Server).address() as AddressInfo;
  const logger = createLogger({ level: 'silent', name: 'test' });
  const ops = await listenOps(app, config, logger, 0);
  return {
    app,
    port: address.port,
    opsPort: ops.port,
    store,
    close: async () => {
      await ops.close();
      await app.close();
      await store.close();
    },
  };
}
