import { PROVIDER_NAMES, type ProviderName } from '@svc/contract';

/** A partner as the service uses it: secret resolved, defaults applied. Never logged (see redaction). */
export interface PartnerConfig {
  partnerId: string;
  secret: string;
  /** During a secret rotation, the secret being retired (previousSecretEnv): it verifies requests, never signs. */
  previousSecret?: string;
  authVersion: 1 | 2;
  callbackUrl: string | null;
  maxFeeBps: number;
  allowedProviders: readonly ProviderName[];
  rateLimitPerMinute: number;
  enabled: boolean;
  /**
   * Whether a leg delivered on a chain the service cannot read (not in CHAINS_FILE) may settle on its provider's word,
   * with `settledAmountBasis: "estimated"`. Absent (the default): such a leg never settles (docs/attempt-status.md
   * "Chains the service cannot read"). Read by the tracker when it reads the fill, so a change applies to open
   * attempts too.
   */
  acceptEstimatedSettlement?: boolean;
}

export const PARTNER_DEFAULTS = {
  maxFeeBps: 300,
  /** Every provider the API names; quoting considers those of them that have an adapter (ROUTABLE_PROVIDERS). */
  allowedProviders: PROVIDER_NAMES as readonly ProviderName[],
  rateLimitPerMinute: 600,
  enabled: true,
} as const;

/** Read access to the configured partners (the gateway's lookup). */
export class PartnerDirectory {
  private readonly byId: ReadonlyMap<string, PartnerConfig>;

  constructor(partners: readonly PartnerConfig[]) {
    this.byId = new Map(partners.map((p) => [p.partnerId, p]));
  }

  get(partnerId: string): PartnerConfig | undefined {
    return this.byId.get(partnerId);
  }

  all(): PartnerConfig[] {
    return [...this.byId.values()];
  }
}

/** Injection token for the PartnerDirectory, bound by the composition root. */
export const PARTNER_DIRECTORY = Symbol('PARTNER_DIRECTORY');
