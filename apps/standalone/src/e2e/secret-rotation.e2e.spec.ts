import { MemoryEventStore } from '@svc/event-store';
import { type PartnerConfig } from '@svc/platform';
import { signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const PING = '/api/external/ping';
const OLD = 'old-secret-0123456789abcdef';
const NEW = 'new-secret-0123456789abcdef';

/**
 * A partner's secret rotated without downtime (issue 23 item 6), over HTTP on the real service: before, during (both
 * secrets verify) and after (only the new one), each phase a restart with the partners file of that phase.
 */
describe('secret rotation', () => {
  const partner = (secret: string, previousSecret?: string): PartnerConfig => ({
    ...PARTNERS.v2,
    partnerId: 'partner-rotating',
    secret,
    ...(previousSecret ? { previousSecret } : {}),
  });
  const ping = (app: TestApp, secret: string, authVersion: 1 | 2 = 2) =>
    signedRequest({
      port: app.port,
      partner: { partnerId: 'partner-rotating', secret, authVersion },
      method: 'GET',
      path: PING,
    });
  const during = async <T>(config: PartnerConfig, run: (app: TestApp) => Promise<T>): Promise<T> => {
    const app = await startTestApp({ store: new MemoryEventStore(), partners: [config] });
    try {
      return await run(app);
    } finally {
      await app.close();
    }
  };

  it('given the old secret, then a rotation (both verify), then the old retired: no request signed with the secret in force is ever refused', async () => {
    const before = await during(partner(OLD), async (app) => [
      (await ping(app, OLD)).status,
      (await ping(app, NEW)).status,
    ]);
    const rotating = await during(partner(NEW, OLD), async (app) => [
      (await ping(app, OLD)).status,
      (await ping(app, NEW)).status,
      (await ping(app, 'a-third-secret-0123456789')).status,
    ]);
    const after = await during(partner(NEW), async (app) => [
      (await ping(app, OLD)).status,
      (await ping(app, NEW)).status,
    ]);

    expect(before).toEqual([200, 401]);
    expect(rotating).toEqual([200, 200, 401]);
    expect(after).toEqual([401, 200]);
  });
});
