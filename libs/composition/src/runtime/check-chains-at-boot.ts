import { type ChainRegistry } from '@svc/chains';
import { type PartnerConfig } from '@svc/platform';
import { type ProvidersConfig } from '@svc/providers';
import { enabledProviders } from './check-providers-at-boot';

/**
 * What NODE_ENV=production refuses about the chains read (security review N-L3, H2): no CHAINS_FILE, or one missing a
 * chain the providers serve here (the chains of the calldata allowlist of each provider an enabled partner allows,
 * narrowed by PROVIDER_CHAINS: a leg starts and ends on them). A fill on a chain the service does not read settles on
 * the provider's word (`estimated`), and a source transaction there is never checked. One problem line, or none.
 */
export function chainsProblems(params: {
  chainsFile: string | null;
  chains: ChainRegistry;
  providers: ProvidersConfig;
  partners: readonly PartnerConfig[];
}): string[] {
  if (params.chainsFile === null)
    return [
      "CHAINS_FILE: required with NODE_ENV=production (the chains the service reads: a fill on a chain it cannot read settles on the provider's word), unless PRODUCTION_OVERRIDES=CHAINS_FILE",
    ];
  const missing = enabledProviders(params.partners)
    .map((provider) => ({
      provider,
      chainIds: [...params.providers.calldata[provider].keys()]
        .filter((chainId) => !params.chains.has(chainId))
        .sort((a, b) => a - b),
    }))
    .filter(({ chainIds }) => chainIds.length > 0);
  if (missing.length === 0) return [];
  const listed = missing.map(({ provider, chainIds }) => `${provider}: ${chainIds.join(', ')}`).join('; ');
  return [
    `CHAINS_FILE: does not list chains the providers serve (${listed}); a fill there would settle on the provider's ` +
      'word. Add them to CHAINS_FILE, or serve only the chains read (PROVIDER_CHAINS), or PRODUCTION_OVERRIDES=CHAINS_FILE',
  ];
}
