import { ConfigError } from '@svc/platform';

type Env = Record<string, string | undefined>;

export const PLAIN_HTTP_HOSTS_VARIABLE = 'PROVIDER_PLAIN_HTTP_HOSTS';

/**
 * Host names besides loopback whose provider URLs may be plain http: a sandbox reached by its service name
 * (docker compose). Refused in production (provider-boot-check.ts).
 */
export function plainHttpHosts(env: Env): string[] {
  const value = env[PLAIN_HTTP_HOSTS_VARIABLE]?.trim() ?? '';
  const hosts = value === '' ? [] : value.split(',').map((host) => host.trim().toLowerCase());
  if (hosts.some((host) => !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?$/.test(host)))
    throw new ConfigError(
      `invalid environment:\n  ${PLAIN_HTTP_HOSTS_VARIABLE}: must be comma-separated host names`,
    );
  return hosts;
}

/**
 * Provider answers become calls the user signs, so they travel over TLS; plain http only where nothing sits in
 * between: this machine (tests, `npm start`), or a host the deployment names on purpose.
 */
export function mayUsePlainHttp(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase();
  return (
    host === 'localhost' || host === '[::1]' || /^127(\.[0-9]{1,3}){3}$/.test(host) || allowed.includes(host)
  );
}
