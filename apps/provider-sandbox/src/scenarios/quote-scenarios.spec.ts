import { QUOTE_SCENARIOS, quoteScenarioFor } from './quote-scenarios';
import { SANDBOX_SCENARIOS, scenarioOf } from './sandbox-scenarios';

describe('quote scenarios', () => {
  it('have suffixes of their own, none a settlement scenario, so the deposit of such an amount settles normally', () => {
    const settlement = new Set(SANDBOX_SCENARIOS.map((s) => s.suffix));
    for (const { suffix } of QUOTE_SCENARIOS) {
      expect(settlement.has(suffix)).toBe(false);
      expect(scenarioOf(5_000_000n + suffix)).toBe('normal');
    }
    expect(new Set(QUOTE_SCENARIOS.map((s) => s.suffix)).size).toBe(QUOTE_SCENARIOS.length);
  });

  it.each([
    { provider: 'across', amount: 2_000_911n, scenario: 'zero-gas' },
    { provider: 'relay', amount: 2_000_911n, scenario: null },
    { provider: 'relay', amount: 7_000_912n, scenario: 'rate-limited' },
    { provider: 'across', amount: 912n, scenario: 'rate-limited' },
    { provider: 'mayan', amount: 2_000_911n, scenario: null },
    { provider: 'across', amount: 7_000_000n, scenario: null },
  ] as const)('$provider, $amount → $scenario', ({ provider, amount, scenario }) => {
    expect(quoteScenarioFor(provider, amount)).toBe(scenario);
  });
});
