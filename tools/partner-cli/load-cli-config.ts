import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './cli-errors';

export interface CliConfig {
  serviceUrl: string;
  partnerId: string;
  /** Never printed. */
  secret: string;
  authVersion: 1 | 2;
  /** Where the partner came from, for the banner: `env` or the partners file path. */
  source: string;
  /**
   * The partner came from a partners file marked `"development": true`, which a service with NODE_ENV=production
   * refuses to boot with: a service that authenticates it is not a production one (the sandbox-only commands' check).
   */
  development: boolean;
}

interface PartnerEntry {
  partnerId?: unknown;
  secret?: unknown;
  secretEnv?: unknown;
  authVersion?: unknown;
}

/**
 * Partner and service from the environment. Without PARTNER_SECRET the partners file the service itself reads
 * (config/partners.dev.json by default) supplies id, secret and version, which is what lets `npm start` then
 * `npm run partner -- ping` work with no setup.
 */
export function loadCliConfig(
  env: Record<string, string | undefined>,
  paths: { repoRoot: string; cwd: string },
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): CliConfig {
  const serviceUrl = env.SERVICE_URL || 'http://127.0.0.1:3000';
  if (!URL.canParse(serviceUrl) || !/^https?:$/.test(new URL(serviceUrl).protocol)) {
    throw new ConfigError(`SERVICE_URL is not an http(s) URL: ${serviceUrl}`);
  }
  const versionOverride = parseAuthVersion(env.PARTNER_AUTH_VERSION, 'PARTNER_AUTH_VERSION');

  if (env.PARTNER_SECRET) {
    if (!env.PARTNER_ID) throw new ConfigError('PARTNER_ID is required when PARTNER_SECRET is set');
    return {
      serviceUrl,
      partnerId: env.PARTNER_ID,
      secret: env.PARTNER_SECRET,
      authVersion: versionOverride ?? 2,
      source: 'env',
      development: false,
    };
  }

  const file = env.PARTNERS_FILE
    ? resolve(paths.cwd, env.PARTNERS_FILE)
    : join(paths.repoRoot, 'config', 'partners.dev.json');
  const { partners, development } = readPartners(file, readFile);
  const partner = pickPartner(partners, env.PARTNER_ID, file);
  const secretEnv = typeof partner.secretEnv === 'string' ? partner.secretEnv : undefined;
  const secret = typeof partner.secret === 'string' ? partner.secret : secretEnv && env[secretEnv];
  if (!secret) {
    throw new ConfigError(
      secretEnv
        ? `partner ${String(partner.partnerId)} takes its secret from ${secretEnv}, which is not set`
        : `partner ${String(partner.partnerId)} in ${file} has neither secret nor secretEnv; set PARTNER_SECRET`,
    );
  }
  const authVersion = versionOverride ?? parseAuthVersion(partner.authVersion, `authVersion in ${file}`) ?? 2;
  return {
    serviceUrl,
    partnerId: String(partner.partnerId),
    secret,
    authVersion,
    source: file,
    development: development && typeof partner.secret === 'string',
  };
}

function parseAuthVersion(value: unknown, what: string): 1 | 2 | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 1 || value === '1') return 1;
  if (value === 2 || value === '2') return 2;
  throw new ConfigError(`${what} must be 1 or 2, got ${JSON.stringify(value)}`);
}

function readPartners(
  file: string,
  readFile: (path: string) => string,
): { partners: PartnerEntry[]; development: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFile(file));
  } catch (error) {
    throw new ConfigError(
      `cannot read partners from ${file} (${(error as Error).message}); set PARTNER_ID and PARTNER_SECRET`,
    );
  }
  const { partners, development } = (parsed ?? {}) as { partners?: unknown; development?: unknown };
  if (!Array.isArray(partners) || partners.length === 0)
    throw new ConfigError(`${file} has no "partners" array`);
  return { partners: partners as PartnerEntry[], development: development === true };
}

function pickPartner(partners: PartnerEntry[], wanted: string | undefined, file: string): PartnerEntry {
  const partner = wanted ? partners.find((p) => p.partnerId === wanted) : partners[0];
  if (partner === undefined || typeof partner.partnerId !== 'string') {
    throw new ConfigError(
      wanted ? `PARTNER_ID ${wanted} is not in ${file}` : `the first partner in ${file} has no partnerId`,
    );
  }
  return partner;
}
