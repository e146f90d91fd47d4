import { type SandboxProvider } from '../pricing/sandbox-provider';

/**
 * Outcomes a quote request can ask for, chosen like the settlement scenarios (sandbox-scenarios.ts) by the last
 * three digits of the request's input amount, but played at quote time: the deposit of such an amount settles
 * normally. Kept apart from SANDBOX_SCENARIOS so its suffixes never collide with a settlement outcome.
 */
export type QuoteScenario = 'zero-gas' | 'rate-limited';

export interface QuoteScenarioEntry {
  scenario: QuoteScenario;
  suffix: bigint;
  /** The providers whose dialect plays it; the others quote as usual. */
  providers: readonly SandboxProvider[];
}

export const QUOTE_SCENARIOS: readonly QuoteScenarioEntry[] = [
  // across-protocol/toolkit 9c840105: the Swap API can answer `swapTx.gas: "0"`, which clients must treat as unset.
  { scenario: 'zero-gas', suffix: 911n, providers: ['across'] },
  // A 429 with Retry-After. Relay: 429 `{message}` (relay-kit types/api.ts). Across publishes no 429 body.
  // Mayan publishes none either: its dialect sends NestJS's throttler answer (mayan/mayan-errors.ts).
  { scenario: 'rate-limited', suffix: 912n, providers: ['relay', 'across', 'mayan'] },
];

/** How long a `rate-limited` answer asks the client to wait, in whole seconds (the Retry-After header). */
export const RATE_LIMIT_RETRY_AFTER_SECONDS = 2;

/** The quote scenario `provider` plays for a request of this input amount, if any. */
export function quoteScenarioFor(provider: SandboxProvider, amountIn: bigint): QuoteScenario | null {
  const suffix = amountIn % 1000n;
  const entry = QUOTE_SCENARIOS.find((s) => s.suffix === suffix && s.providers.includes(provider));
  return entry?.scenario ?? null;
}
