import { readFileSync } from 'node:fs';
import { validateSync } from 'class-validator';
import { ConfigError } from './config-error';
import { formatValidationErrors } from './format-validation-errors';
import { PARTNER_DEFAULTS, type PartnerConfig } from './partner-config';
import { partnersFileOf, type PartnersFile } from './partner-config.dto';

/**
 * Parses and validates PARTNERS_FILE content. Every problem is reported with the JSON path of the bad field,
 * for example `partners[1].maxFeeBps: maxFeeBps must not be greater than 10000`. The message never carries a
 * secret's value.
 */
export function parsePartners(
  json: string,
  env: NodeJS.ProcessEnv,
  source = 'PARTNERS_FILE',
  /**
   * With NODE_ENV=production a development file (`"development": true`) and inline secrets are refused: production
   * secrets come from the environment (`secretEnv`, filled from a secret manager), never from a file in the image.
   */
  { production = false }: { production?: boolean } = {},
): PartnerConfig[] {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (err) {
    throw new ConfigError(`${source}: not valid JSON (${(err as Error).message})`);
  }
  const file = partnersFileOf(raw) as PartnersFile;
  const errors =
    typeof raw === 'object' && raw !== null ? validateSync(file, { forbidUnknownValues: true }) : [];
  const problems =
    typeof raw === 'object' && raw !== null
      ? formatValidationErrors(errors)
      : ['file must hold a JSON object'];
  const partners: PartnerConfig[] = [];
  const seen = new Set<string>();
  if (production && !problems.length && file.development === true)
    problems.push('file is marked "development": true, which NODE_ENV=production refuses');
  (problems.length ? [] : file.partners).forEach((entry, i) => {
    const at = `partners[${i}]`;
    if (seen.has(entry.partnerId)) problems.push(`${at}.partnerId: duplicate partnerId "${entry.partnerId}"`);
    seen.add(entry.partnerId);
    if ((entry.secret === undefined) === (entry.secretEnv === undefined)) {
      problems.push(`${at}: exactly one of secret or secretEnv is required`);
      return;
    }
    if (production && entry.secret !== undefined) {
      problems.push(
        `${at}.secret: an inline secret is refused with NODE_ENV=production; name secretEnv instead`,
      );
      return;
    }
    if (production && entry.callbackUrl !== undefined && !entry.callbackUrl.startsWith('https://')) {
      problems.push(`${at}.callbackUrl: NODE_ENV=production sends webhooks over https only`);
      return;
    }
    const secret = entry.secret ?? env[entry.secretEnv!];
    if (!secret || secret.length < 16) {
      problems.push(
        `${at}.secretEnv: environment variable ${entry.secretEnv} must hold a secret of at least 16 characters`,
      );
      return;
    }
    const previousSecret = entry.previousSecretEnv === undefined ? undefined : env[entry.previousSecretEnv];
    if (entry.previousSecretEnv !== undefined && (!previousSecret || previousSecret.length < 16)) {
      problems.push(
        `${at}.previousSecretEnv: environment variable ${entry.previousSecretEnv} must hold a secret of at least 16 characters`,
      );
      return;
    }
    if (previousSecret === secret) {
      problems.push(`${at}.previousSecretEnv: the previous secret equals the current one`);
      return;
    }
    partners.push({
      partnerId: entry.partnerId,
      secret,
      ...(previousSecret === undefined ? {} : { previousSecret }),
      authVersion: entry.authVersion,
      callbackUrl: entry.callbackUrl ?? null,
      maxFeeBps: entry.maxFeeBps ?? PARTNER_DEFAULTS.maxFeeBps,
      allowedProviders: entry.allowedProviders ?? PARTNER_DEFAULTS.allowedProviders,
      rateLimitPerMinute: entry.rateLimitPerMinute ?? PARTNER_DEFAULTS.rateLimitPerMinute,
      enabled: entry.enabled ?? PARTNER_DEFAULTS.enabled,
      ...(entry.acceptEstimatedSettlement === true ? { acceptEstimatedSettlement: true } : {}),
    });
  });
  if (problems.length) throw new ConfigError(`${source} is invalid:\n  ${problems.join('\n  ')}`);
  return partners;
}

export function loadPartnersFile(
  path: string,
  env: NodeJS.ProcessEnv = process.env,
  options: { production?: boolean } = {},
): PartnerConfig[] {
  let json: string;
  try {
    json = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `PARTNERS_FILE: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  return parsePartners(json, env, `PARTNERS_FILE ${path}`, options);
}
