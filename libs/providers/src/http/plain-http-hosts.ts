import { registerDecorator, type ValidationArguments } from 'class-validator';

const HOST = '[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?';

/** PROVIDER_PLAIN_HTTP_HOSTS as written: comma-separated host names. */
export const PLAIN_HTTP_HOSTS_PATTERN = new RegExp(`^${HOST}(\\s*,\\s*${HOST})*$`);

/**
 * Host names besides loopback whose provider URLs may be plain http: a sandbox reached by its service name
 * (docker compose). Refused in production (check-providers-at-boot.ts).
 */
export function plainHttpHosts(value: string | undefined): string[] {
  return value ? value.split(',').map((host) => host.trim().toLowerCase()) : [];
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

/**
 * A provider base URL: absolute http(s), no query or fragment, https unless the host is loopback or listed in the
 * DTO's PROVIDER_PLAIN_HTTP_HOSTS.
 */
export function IsProviderUrl(): PropertyDecorator {
  const problem = (args: ValidationArguments) =>
    providerUrlProblem(
      args.value,
      plainHttpHosts((args.object as { PROVIDER_PLAIN_HTTP_HOSTS?: string }).PROVIDER_PLAIN_HTTP_HOSTS),
    );
  return (target, property) =>
    registerDecorator({
      name: 'isProviderUrl',
      target: target.constructor,
      propertyName: String(property),
      validator: {
        validate: (_value, args) => problem(args!) === null,
        defaultMessage: (args) => problem(args!) ?? '',
      },
    });
}

function providerUrlProblem(value: unknown, allowed: readonly string[]): string | null {
  let parsed: URL;
  try {
    parsed = new URL(String(value));
  } catch {
    return 'must be an absolute http(s) URL';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'must be an absolute http(s) URL';
  if (parsed.protocol === 'http:' && !mayUsePlainHttp(parsed.hostname, allowed))
    return 'must be https (plain http only for a loopback host or one in PROVIDER_PLAIN_HTTP_HOSTS)';
  if (parsed.search !== '' || parsed.hash !== '') return 'must not carry a query string or fragment';
  return null;
}
