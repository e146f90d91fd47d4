import { ConfigError, type Logger, type PartnerConfig } from '@svc/platform';
import {
  missingProviderCredentials,
  ROUTABLE_PROVIDERS,
  type ProvidersConfig,
  type RoutableProvider,
} from '@svc/providers';

/**
 * Says at boot what an enabled provider (one an enabled partner allows) lacks for production, one warning line per
 * provider naming the unset variables (never a value). With NODE_ENV=production those gaps, and any plain-http
 * provider host, stop the process instead: a deployment should not find out from 429s.
 */
export function checkProvidersAtBoot(params: {
  config: ProvidersConfig;
  partners: readonly PartnerConfig[];
  production: boolean;
  logger: Pick<Logger, 'warn'>;
}): void {
  const { config, production, logger } = params;
  const enabled = enabledProviders(params.partners);
  const missing = missingProviderCredentials(config, enabled);
  const problems: string[] = [];
  for (const { provider, variables, consequence } of missing) {
    logger.warn(
      { provider, missing: variables },
      `${variables.join(' and ')} not set: ${consequence} (required with NODE_ENV=production)`,
    );
    for (const variable of variables)
      problems.push(`${variable}: required with NODE_ENV=production while a partner allows ${provider}`);
  }
  if (config.plainHttpHosts.length > 0)
    problems.push(
      'PROVIDER_PLAIN_HTTP_HOSTS: not allowed with NODE_ENV=production (provider APIs over https only)',
    );
  if (production && problems.length > 0)
    throw new ConfigError(`invalid environment:\n  ${problems.join('\n  ')}`);
}

/** The providers an enabled partner allows. */
export function enabledProviders(partners: readonly PartnerConfig[]): RoutableProvider[] {
  const allowed = new Set<string>(partners.filter((p) => p.enabled).flatMap((p) => p.allowedProviders));
  return ROUTABLE_PROVIDERS.filter((provider) => allowed.has(provider));
}
