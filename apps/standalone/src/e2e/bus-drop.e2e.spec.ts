import { Controller, Module } from '@nestjs/common';
import { MessagePattern as OnMessage } from '@nestjs/microservices';
import { MessagePattern } from '@svc/messaging';
import { type Clock } from '@svc/platform';
import { signedRequest } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

const served: string[] = [];

@Controller()
class SlowStatus {
  @OnMessage(MessagePattern.status)
  status(payload: { resourceId: string }): Promise<never> {
    served.push(payload.resourceId);
    return new Promise(() => undefined);
  }
}
@Module({ controllers: [SlowStatus] })
class SlowStatusModule {}

describe('a request the in-process bus drops', () => {
  let t: TestApp;
  /** Milliseconds the bus handler's reading of the clock runs ahead of the gateway's: the request "arrived late". */
  let late = 0;
  const clock: Clock = {
    now: () => Date.now() + (late > 0 && new Error().stack?.includes('BusHandlerInterceptor') ? late : 0),
  };

  beforeAll(async () => {
    t = await startTestApp({ clock, features: [SlowStatusModule], env: { BUS_REQUEST_TIMEOUT_MS: '1500' } });
  });
  afterAll(async () => t.close());

  const status = (attemptId: string) =>
    signedRequest({
      port: t.port,
      partner: PARTNERS.v2,
      method: 'GET',
      path: `/api/external/attempts/${attemptId}/status`,
    });

  it('dropped as past its deadline: 503 dependency_unavailable with Retry-After, not 500, and never run', async () => {
    late = 60_000;
    const res = await status('at_dropped');
    late = 0;
    expect([res.status, res.json?.code]).toEqual([503, 'dependency_unavailable']);
    expect(res.headers['retry-after']).toBe('2');
    expect(served).not.toContain('at_dropped');
  });

  it('a handler past its deadline: 503 dependency_unavailable with Retry-After', async () => {
    const res = await status('at_slow');
    expect([res.status, res.json?.code]).toEqual([503, 'dependency_unavailable']);
    expect(res.headers['retry-after']).toBe('2');
  });
});
