import { attemptDeadlines } from './attempt-deadlines';

const windows = { signableSeconds: 30, evidenceWindowSeconds: 900, authorizationTtlSeconds: 86_400 };
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
    expect(attemptDeadlines(NOW, windows, [null, NOW + 60_000, NOW + 2_000_000]).evidenceDeadlineAt).toBe(
      NOW + 60_000,
    );
    expect(attemptDeadlines(NOW, windows, [null, NOW + 2_000_000]).evidenceDeadlineAt).toBe(NOW + 900_000);
  });
});
