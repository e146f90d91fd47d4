import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '@svc/testing';
import { BenchFailure } from './bench-failure';
import { type BenchPartner } from './load/signed-api-request';

export const BENCH_PARTNER_ID = 'demo-partner';
/** anvil's dev account 9 (the sandbox deployer), as `npm start` uses: the dev partner's fee needs a recipient. */
export const SERVICE_FEE_RECIPIENT = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

/**
 * Writes a partners file holding the dev partner of config/partners.dev.json (the one `npm start` and the partner
 * CLI use), with the highest rate limit the config accepts (1 000 000 a minute): a 429 would measure the limiter.
 */
export function writeBenchPartnersFile(path: string, rateLimitPerMinute = 1_000_000): BenchPartner {
  const dev = JSON.parse(readFileSync(join(repoRoot, 'config', 'partners.dev.json'), 'utf8')) as {
    partners: { partnerId: string; secret?: string }[];
  };
  const partner = dev.partners.find((p) => p.partnerId === BENCH_PARTNER_ID);
  if (!partner?.secret) {
    throw new BenchFailure(`config/partners.dev.json has no ${BENCH_PARTNER_ID} with a secret`);
  }
  writeFileSync(path, JSON.stringify({ partners: [{ ...partner, rateLimitPerMinute }] }, null, 2));
  return { partnerId: partner.partnerId, secret: partner.secret };
}
