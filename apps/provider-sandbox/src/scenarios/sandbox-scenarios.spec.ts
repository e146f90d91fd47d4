import { SANDBOX_SCENARIOS, scenarioFor, scenarioOf, withScenario } from './sandbox-scenarios';

describe('sandbox scenarios', () => {
  it('the table gives each scenario its own suffix, 901 to 910, 913 and 914 (911 and 912 are quote scenarios)', () => {
    expect(SANDBOX_SCENARIOS.map((s) => s.suffix)).toEqual([
      901n,
      902n,
      903n,
      904n,
      905n,
      906n,
      907n,
      908n,
      909n,
      910n,
      913n,
      914n,
    ]);
    expect(new Set(SANDBOX_SCENARIOS.map((s) => s.scenario)).size).toBe(SANDBOX_SCENARIOS.length);
  });

  it.each([
    { amount: 10_000_000n, scenario: 'normal' },
    { amount: 40_000_000n, scenario: 'normal' },
    { amount: 10_000_900n, scenario: 'normal' },
    { amount: 10_000_911n, scenario: 'normal' },
    { amount: 10_000_901n, scenario: 'refund' },
    { amount: 901n, scenario: 'refund' },
    { amount: 10n ** 18n + 905n, scenario: 'reverted-fill' },
    { amount: 3_000_000_910n, scenario: 'delayed' },
  ])('scenarioOf($amount) is $scenario', ({ amount, scenario }) => {
    expect(scenarioOf(amount)).toBe(scenario);
  });

  it('withScenario sets the last three digits and scenarioOf reads them back', () => {
    for (const { scenario, suffix } of SANDBOX_SCENARIOS) {
      const amount = withScenario(12_345_678n, scenario);
      expect(amount).toBe(12_345_000n + suffix);
      expect(scenarioOf(amount)).toBe(scenario);
    }
    expect(withScenario(12_345_901n, 'normal')).toBe(12_345_000n);
    expect(() => withScenario(999n, 'refund')).toThrow(RangeError);
  });

  it.each([
    { scenario: 'failure-then-refund', relay: 'failure-then-refund', across: 'refund', mayan: 'refund' },
    { scenario: 'final-failure', relay: 'final-failure', across: 'refund', mayan: 'refund' },
    { scenario: 'cancel', relay: 'refund', across: 'refund', mayan: 'cancel' },
    {
      scenario: 'destination-action-failed',
      relay: 'normal',
      across: 'destination-action-failed',
      mayan: 'normal',
    },
    { scenario: 'delayed', relay: 'delayed', across: 'normal', mayan: 'normal' },
    { scenario: 'fallback', relay: 'fallback', across: 'refund', mayan: 'refund' },
    { scenario: 'late-refund', relay: 'refund', across: 'late-refund', mayan: 'refund' },
    { scenario: 'short-fill', relay: 'short-fill', across: 'short-fill', mayan: 'short-fill' },
  ] as const)('$scenario plays per provider', ({ scenario, ...plays }) => {
    const amount = withScenario(50_000_000n, scenario);
    expect({
      relay: scenarioFor('relay', amount),
      across: scenarioFor('across', amount),
      mayan: scenarioFor('mayan', amount),
    }).toEqual(plays);
  });
});
