import { resolve } from 'node:path';
import { PartnerClient } from '@svc/partner-client';
import { ConfigError, loadPartnersFile } from '@svc/platform';

/** What a live service answered to the partner's signed GET /attempts/{id}/status. */
export interface LiveStatus {
  url: string;
  httpStatus: number;
  body: unknown;
}

/**
 * Asks a running service for the attempt's status as its partner would (a signed GET through the partner client).
 * The partner's secret comes from PARTNER_SECRET (with PARTNER_ID naming that partner) or from the partners file the
 * service reads (PARTNERS_FILE, default config/partners.dev.json); it is used to sign and never printed.
 */
export async function readLiveStatus(
  api: string,
  partnerId: string,
  attemptId: string,
  env: Record<string, string | undefined>,
): Promise<LiveStatus> {
  const credentials = partnerCredentials(partnerId, env);
  const client = new PartnerClient({ baseUrl: api, partnerId, ...credentials, maxRetries: 1 });
  const response = await client.status(attemptId);
  return { url: api, httpStatus: response.status, body: response.body };
}

function partnerCredentials(
  partnerId: string,
  env: Record<string, string | undefined>,
): { secret: string; authVersion: 1 | 2 } {
  if (env.PARTNER_SECRET) {
    if (env.PARTNER_ID !== partnerId)
      throw new ConfigError(
        `PARTNER_SECRET is given for ${env.PARTNER_ID ?? '(no PARTNER_ID)'}, the attempt is ${partnerId}'s`,
      );
    return { secret: env.PARTNER_SECRET, authVersion: env.PARTNER_AUTH_VERSION === '1' ? 1 : 2 };
  }
  const file = resolve(env.PARTNERS_FILE || 'config/partners.dev.json');
  const partner = loadPartnersFile(file, env).find((p) => p.partnerId === partnerId);
  if (partner === undefined)
    throw new ConfigError(`partner ${partnerId} is not in ${file}: set PARTNER_ID and PARTNER_SECRET`);
  return { secret: partner.secret, authVersion: partner.authVersion };
}
