import { ChainRegistry, loadChainsFile } from '@svc/chains';
import { reportStoredEventProblemsTo } from '@svc/event-store';
import { ConfigError, createLogger, loadPartnersFile, type Logger, type PartnerConfig } from '@svc/platform';
import { type AppConfig, type AppRole, loadAppConfig } from '../config/app-config';
import { chainsProblems } from './check-chains-at-boot';
import { checkProvidersAtBoot } from './check-providers-at-boot';
import { isDevelopmentAccount } from './development-accounts';
import { providerSecrets } from '@svc/providers';

/** What every app reads from its environment before composing anything. */
export interface Runtime {
  config: AppConfig;
  partners: PartnerConfig[];
  chains: ChainRegistry;
  logger: Logger;
}

/**
 * Validates the environment (loadAppConfig) and the files it names, then builds the logger (every partner secret,
 * provider key, chain RPC URL and event store URL scrubbed from its output) and warns about providers missing
 * production credentials. A bad setting throws a ConfigError naming it, before anything starts (with
 * NODE_ENV=production, so do a missing credential, a development or zero fee recipient and a CHAINS_FILE that does not
 * list every chain the providers serve). Stored events the command seam skips or refuses are logged
 * through this logger from then on.
 */
export function loadRuntime(
  environment: NodeJS.ProcessEnv,
  name: string,
  role?: Omit<AppRole, 'name'>,
): Runtime {
  const config = loadAppConfig(environment, role && { name, ...role });
  const partners = loadPartnersFile(config.files.partners, environment, { production: config.production });
  const recipient = config.quoting.serviceFeeRecipient;
  if (config.production && recipient !== null && isDevelopmentAccount(recipient))
    throw new ConfigError(
      `invalid environment:\n  SERVICE_FEE_RECIPIENT: ${recipient} is a public development account (anvil/Hardhat's test mnemonic), refused with NODE_ENV=production: anyone holds its key`,
    );
  if (config.production && recipient !== null && BigInt(recipient) === 0n)
    throw new ConfigError(
      'invalid environment:\n  SERVICE_FEE_RECIPIENT: the zero address burns every fee sent to it, refused with NODE_ENV=production',
    );
  if (
    !config.quoting.serviceFeeRecipient &&
    (config.quoting.serviceFeeBps > 0 || partners.some((p) => p.maxFeeBps > 0))
  ) {
    throw new ConfigError(
      'invalid environment:\n  SERVICE_FEE_RECIPIENT: required because SERVICE_FEE_BPS or a partner maxFeeBps allows a fee (an EVM address receiving the app fee)',
    );
  }
  const chains = new ChainRegistry(config.files.chains ? loadChainsFile(config.files.chains) : []);
  const { providers } = config;
  const logger = createLogger({
    level: config.log.level,
    name,
    secrets: valuesKeptOutOfLogs(config, partners, chains),
  }).child({ instance: config.work.instanceId });
  checkProvidersAtBoot({ config: providers, partners, production: config.production, logger });
  if (config.production && !config.productionOverrides.has('CHAINS_FILE')) {
    const problems = chainsProblems({
      chainsFile: config.files.chains,
      chains,
      providers: config.providers,
      partners,
    });
    if (problems.length) throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
  }
  // Stored events the command seam did not fold (a newer build's type, a malformed one) are told in the service's log.
  reportStoredEventProblemsTo((problem, message) => logger.warn({ storedEvent: problem }, message));
  return { config, partners, chains, logger };
}

/**
 * Every value no log line may show: partner secrets, provider keys, the Kafka SASL password, and (L8) the chain RPC
 * URLs and the EventStoreDB URL, which may carry an API key or credentials, and the OTLP exporter's header values.
 */
export function valuesKeptOutOfLogs(
  config: AppConfig,
  partners: readonly PartnerConfig[],
  chains: ChainRegistry,
): string[] {
  return [
    ...partners.flatMap((p) => (p.previousSecret === undefined ? [p.secret] : [p.secret, p.previousSecret])),
    ...providerSecrets(config.providers),
    ...(config.bus.kafka.sasl ? [config.bus.kafka.sasl.password] : []),
    ...chains.chainIds().map((id) => chains.config(id).rpcUrl),
    ...(config.store.eventStoreDbUrl ? [config.store.eventStoreDbUrl] : []),
    ...Object.values(config.tracing?.headers ?? {}),
  ];
}
