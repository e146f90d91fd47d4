import { type SandboxProvider } from './sandbox-provider';

/** What a provider charges and how long it claims to take; the sandbox defaults echo each provider's public fee model. */
export interface ProviderEconomics {
  feeBps: number;
  /** Flat fee in micro-USD (Relay's $0.02 execution fee). */
  flatFeeMicroUsd: bigint;
  etaSeconds: number;
}

export const DEFAULT_ECONOMICS: Readonly<Record<SandboxProvider, ProviderEconomics>> = {
  relay: { feeBps: 10, flatFeeMicroUsd: 20_000n, etaSeconds: 12 },
  across: { feeBps: 6, flatFeeMicroUsd: 0n, etaSeconds: 4 },
  mayan: { feeBps: 15, flatFeeMicroUsd: 0n, etaSeconds: 20 },
};
