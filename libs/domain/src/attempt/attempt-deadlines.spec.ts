import { attemptDeadlines, providerDeadlineFloor } from './attempt-deadlines';

const windows = {
  signableSeconds: 30,
  executionSeconds: 30,
  evidenceWindowSeconds: 900,
  authorizationTtlSeconds: 86_400,
};
const NOW = 1_767_225_600_500;

describe('attempt deadlines', () => {
  it('signable for 30 s, evidence for the window, the authorization for its own TTL in Unix seconds', () => {
    expect(attemptDeadlines(NOW, windows, [])).toEqual({
      expiresAt: NOW + 30_000,
      evidenceDeadlineAt: NOW + 900_000,
      authorizationExpiresAt: 1_767_225_600 + 86_400,
    });
  });

  it('a provider deadline earlier than the window shortens the evidence deadline; a later one or none does not', () => {
    expect(attemptDeadlines(NOW, windows, [null, NOW + 90_000, NOW + 2_000_000]).evidenceDeadlineAt).toBe(
      NOW + 90_000,
    );
    expect(attemptDeadlines(NOW, windows, [null, NOW + 2_000_000]).evidenceDeadlineAt).toBe(NOW + 900_000);
  });

  it('a provider deadline may not end before the signable window plus execution time: that is the floor', () => {
    expect(providerDeadlineFloor(NOW, windows)).toBe(NOW + 60_000);
  });

  it('evidence is never due before the end of the signable window plus execution time', () => {
    for (const providerDeadline of [null, NOW + 60_000, NOW + 61_000, NOW + 3_600_000]) {
      const d = attemptDeadlines(NOW, windows, [providerDeadline]);
      expect(d.evidenceDeadlineAt).toBeGreaterThanOrEqual(d.expiresAt + windows.executionSeconds * 1000);
    }
    // An evidence window configured shorter than that is stretched to it.
    const short = attemptDeadlines(NOW, { ...windows, evidenceWindowSeconds: 45 }, []);
    expect(short.evidenceDeadlineAt).toBe(short.expiresAt + 30_000);
  });

  it('refuses to date an attempt by a provider deadline shorter than that (prepare re-quotes or refuses first)', () => {
    // The black-box case of issue 24: a 30 s provider deadline, the same instant the signable window ends.
    for (const providerDeadline of [NOW + 30_000, NOW + 59_999, NOW - 1])
      expect(() => attemptDeadlines(NOW, windows, [NOW + 2_000_000, providerDeadline])).toThrow(
        /provider deadline .* before the signable window plus execution time/,
      );
  });
});
