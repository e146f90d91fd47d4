import { loadServiceEnv } from './load-service-env';

describe('loadServiceEnv', () => {
  it('has defaults that work on a fresh clone', () => {
    expect(loadServiceEnv({})).toEqual(
      expect.objectContaining({
        PORT: 3000,
        HOST: '127.0.0.1',
        PARTNERS_FILE: 'config/partners.dev.json',
        DATA_DIR: 'data',
        EVENT_STORE: 'sqlite',
        MAX_BODY_BYTES: 262144,
        IDEMPOTENCY_RETENTION_HOURS: 24,
        WEBHOOK_HISTORY_RETENTION_DAYS: 30,
      }),
    );
  });

  it('reads and converts variables', () => {
    expect(loadServiceEnv({ PORT: '8080', EVENT_STORE: 'memory' })).toEqual(
      expect.objectContaining({ PORT: 8080, EVENT_STORE: 'memory' }),
    );
  });

  it('keeps webhook delivery history longer when told', () => {
    expect(loadServiceEnv({ WEBHOOK_HISTORY_RETENTION_DAYS: '90' })).toMatchObject({
      WEBHOOK_HISTORY_RETENTION_DAYS: 90,
    });
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ EVENT_STORE: 'postgres' }, /EVENT_STORE/],
    [{ IDEMPOTENCY_RETENTION_HOURS: '1' }, /IDEMPOTENCY_RETENTION_HOURS/],
    [{ EVENT_STORE: 'eventstoredb' }, /EVENTSTOREDB_URL/],
    [
      { WEBHOOK_HISTORY_RETENTION_DAYS: '29' },
      /WEBHOOK_HISTORY_RETENTION_DAYS must be at least 30: partners are promised/,
    ],
    [{ WEBHOOK_HISTORY_RETENTION_DAYS: '30.5' }, /WEBHOOK_HISTORY_RETENTION_DAYS must be a whole number/],
  ])('stops on %j with a message naming the variable', (env, message) => {
    expect(() => loadServiceEnv(env)).toThrow(message);
  });
});
