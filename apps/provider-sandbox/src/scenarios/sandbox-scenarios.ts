import { type SandboxProvider } from '../pricing/sandbox-provider';

/**
 * How a deposit is settled, chosen per deposit by the last three digits of its raw input amount, like a payment
 * processor's test cards: the amount passes unchanged through quote, prepare and the wallet, so an end-to-end test
 * reaches every provider outcome through the real API. `normal` is everything not in the table.
 */
export type SandboxScenario =
  | 'normal'
  | 'refund'
  | 'failure-then-refund'
  | 'final-failure'
  | 'cancel'
  | 'reverted-fill'
  | 'short-fill'
  | 'zero-fill'
  | 'wrong-token-fill'
  | 'destination-action-failed'
  | 'delayed'
  | 'fallback'
  | 'late-refund';

export interface ScenarioEntry {
  scenario: Exclude<SandboxScenario, 'normal'>;
  /** The input amount's last three digits (amount mod 1000). */
  suffix: bigint;
  /** What each provider plays: a scenario a provider has no such outcome for falls back to the nearest one. */
  plays: Readonly<Record<SandboxProvider, SandboxScenario>>;
}

const SAME = (scenario: SandboxScenario) => ({ relay: scenario, across: scenario, mayan: scenario });

/** The one table of magic suffixes; docs/sandbox.md "Scenarios" describes what each does per provider. */
export const SANDBOX_SCENARIOS: readonly ScenarioEntry[] = [
  { scenario: 'refund', suffix: 901n, plays: SAME('refund') },
  // relay-kit websocketHandlers.ts: "pending -> failure -> pending -> refund"; Across and Mayan have no such step.
  {
    scenario: 'failure-then-refund',
    suffix: 902n,
    plays: { relay: 'failure-then-refund', across: 'refund', mayan: 'refund' },
  },
  // Relay: failure with no refund (docs /how-it-works/refunds: none when it cannot cover gas). Across's only
  // failed status is gasless `deposit-failed` and Mayan has none, so both refund.
  {
    scenario: 'final-failure',
    suffix: 903n,
    plays: { relay: 'final-failure', across: 'refund', mayan: 'refund' },
  },
  // mayan-finance/wormhole-sdk-route src/utils.ts: MayanClientStatus.CANCELED, handled like REFUNDED.
  { scenario: 'cancel', suffix: 904n, plays: { relay: 'refund', across: 'refund', mayan: 'cancel' } },
  { scenario: 'reverted-fill', suffix: 905n, plays: SAME('reverted-fill') },
  { scenario: 'short-fill', suffix: 906n, plays: SAME('short-fill') },
  { scenario: 'zero-fill', suffix: 907n, plays: SAME('zero-fill') },
  { scenario: 'wrong-token-fill', suffix: 908n, plays: SAME('wrong-token-fill') },
  // Across's MulticallHandler fallback; Relay and Mayan deliver the output themselves, so they fill normally.
  {
    scenario: 'destination-action-failed',
    suffix: 909n,
    plays: { relay: 'normal', across: 'destination-action-failed', mayan: 'normal' },
  },
  // Relay's `delayed` status (docs get-intents-status-v3); the others have no such status and fill normally.
  { scenario: 'delayed', suffix: 910n, plays: { relay: 'delayed', across: 'normal', mayan: 'normal' } },
  // Relay's `fallback` status, terminal like `refund` (relay-kit packages/sdk/src/utils/transaction.ts:182: "Transaction
  // failed: Refunded"; provider review N8). Across and Mayan have no such status: they refund.
  { scenario: 'fallback', suffix: 913n, plays: { relay: 'fallback', across: 'refund', mayan: 'refund' } },
  // Across's real refund timeline (issue 24 S14): unfilled, `expired` once the destination chain passes the deposit's
  // fillDeadline, refunded on the origin once its chain passes fillDeadline + a bundle and its challenge period
  // (across-refund-timing.ts). Chain time, so a test covers the hours by anvil time travel. The others refund.
  {
    scenario: 'late-refund',
    suffix: 914n,
    plays: { relay: 'refund', across: 'late-refund', mayan: 'refund' },
  },
];

const SUFFIX_MODULUS = 1000n;

/** The scenario an input amount (base units of the source token) asks for. */
export function scenarioOf(inputAmount: bigint): SandboxScenario {
  const suffix = inputAmount % SUFFIX_MODULUS;
  return SANDBOX_SCENARIOS.find((s) => s.suffix === suffix)?.scenario ?? 'normal';
}

/** What a provider plays for a deposit of this input amount. */
export function scenarioFor(provider: SandboxProvider, inputAmount: bigint): SandboxScenario {
  const scenario = scenarioOf(inputAmount);
  if (scenario === 'normal') return scenario;
  return SANDBOX_SCENARIOS.find((s) => s.scenario === scenario)!.plays[provider];
}

/**
 * `amount` with its last three digits replaced by the scenario's suffix (`000` for `normal`), e.g.
 * `withScenario(10_000_000n, 'refund')` = 10_000_901n. Amounts under 1000 base units have no digits to spare.
 */
export function withScenario(amount: bigint, scenario: SandboxScenario): bigint {
  if (amount < SUFFIX_MODULUS) throw new RangeError(`amount ${amount} is below ${SUFFIX_MODULUS} base units`);
  const base = amount - (amount % SUFFIX_MODULUS);
  if (scenario === 'normal') return base;
  return base + SANDBOX_SCENARIOS.find((s) => s.scenario === scenario)!.suffix;
}
