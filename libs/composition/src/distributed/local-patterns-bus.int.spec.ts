import { Controller, type INestApplication, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Payload } from '@nestjs/microservices';
import {
  BusTimeoutError,
  type BusReply,
  type BusRequest,
  MessagePattern,
  type MessageBus,
  OnBusRequest,
} from '@svc/messaging';
import { createLogger } from '@svc/platform';
import { BusHandlerInterceptor } from '../runtime/bus-handler.interceptor';
import { LocalPatternsBus } from './local-patterns-bus';

type Status = typeof MessagePattern.status;

@Controller()
class StatusController {
  @OnBusRequest(MessagePattern.status)
  status(@Payload() request: BusRequest<Status>): Promise<BusReply<Status>> {
    if (request.resourceId === 'hangs') return new Promise(() => undefined);
    return Promise.resolve({
      ok: false,
      code: 'attempt_not_found',
      message: `served here: ${request.partnerId}/${request.resourceId}`,
    });
  }
}

@Module({ controllers: [StatusController] })
class StatusModule {}

/** The Kafka side, recording what reaches it. */
function recordingRemote(): MessageBus & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    request: (pattern) => {
      sent.push(pattern);
      return Promise.resolve({ ok: true, body: { from: 'remote' }, resource: null } as never);
    },
    emit: (topic) => {
      sent.push(topic);
      return Promise.resolve();
    },
  };
}

const request = (resourceId: string) => ({ partnerId: 'p1', resourceId, body: null }) as never;

describe('LocalPatternsBus: declared patterns served by the app itself, the rest over the remote bus', () => {
  const apps: INestApplication[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  async function serve(patterns: ConstructorParameters<typeof LocalPatternsBus>[0]) {
    const remote = recordingRemote();
    const local = new LocalPatternsBus(patterns, remote);
    const app = await NestFactory.create(StatusModule, new FastifyAdapter(), { logger: false });
    apps.push(app);
    app.useGlobalInterceptors(
      new BusHandlerInterceptor(200, createLogger({ level: 'silent', name: 'local-bus-test' })),
    );
    local.serveWith(app);
    await app.startAllMicroservices();
    return { remote, local };
  }

  it('sends a local pattern to the handler of its own app and everything else to the remote bus', async () => {
    const { remote, local } = await serve([MessagePattern.status]);
    local.assertServed();
    await expect(
      local.bus.request(MessagePattern.status, request('at_1'), { timeoutMs: 1000 }),
    ).resolves.toEqual({ ok: false, code: 'attempt_not_found', message: 'served here: p1/at_1' });
    await expect(
      local.bus.request(MessagePattern.submit, request('at_1'), { timeoutMs: 1000 }),
    ).resolves.toMatchObject({ body: { from: 'remote' } });
    await local.bus.emit('attempt.lifecycle', 'at_1', {});
    expect(remote.sent).toEqual([MessagePattern.submit, 'attempt.lifecycle']);
  });

  it("keeps the handler's deadline: a local handler past it is a BusTimeoutError, as over Kafka", async () => {
    const { local } = await serve([MessagePattern.status]);
    await expect(
      local.bus.request(MessagePattern.status, request('hangs'), { timeoutMs: 5000 }),
    ).rejects.toBeInstanceOf(BusTimeoutError);
  });

  it('refuses an app whose handlers are not exactly the declared patterns', async () => {
    const missing = await serve([MessagePattern.status, MessagePattern.searchAttempts]);
    expect(() => missing.local.assertServed()).toThrow(/not served \["settlement.search-attempts"\]/);
    const undeclared = await serve([MessagePattern.searchAttempts]);
    expect(() => undeclared.local.assertServed()).toThrow(/not declared \["settlement.status"\]/);
  });
});
