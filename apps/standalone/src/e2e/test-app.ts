import { type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { type INestApplication, type Type } from '@nestjs/common';
import { type ProviderName } from '@svc/contract';
import { type EventStore, MemoryEventStore } from '@svc/event-store';
import { type Clock, createLogger, loadServiceEnv, type PartnerConfig } from '@svc/platform';
import { type TestPartner } from '@svc/testing';
import { createStandaloneApp } from '../app/create-standalone-app';

const base = {
  callbackUrl: 'https://partner.example/hooks',
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

export interface TestApp {
  app: INestApplication;
  port: number;
  store: EventStore;
  close(): Promise<void>;
}

/** The real standalone composition on a loopback port, with test partners and the given store. */
export async function startTestApp(
  options: { store?: EventStore; clock?: Clock; features?: Type[]; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const store = options.store ?? new MemoryEventStore();
  const env = loadServiceEnv({ LOG_LEVEL: 'silent', ...options.env });
  const app = await createStandaloneApp({
    env,
    partners: Object.values(PARTNERS),
    store,
    logger: createLogger({ level: 'silent', name: 'test' }),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.features ? { features: options.features } : {}),
  });
  await app.listen(0, '127.0.0.1');
  const address = (app.getHttpServer() as Server).address() as AddressInfo;
  return {
    app,
    port: address.port,
    store,
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}
