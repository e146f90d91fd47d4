import { Controller, type INestMicroservice, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { EventPattern, MessagePattern as OnMessage, Payload } from '@nestjs/microservices';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { inSpan, SpanKind, startTracing, traceLogFields, type Tracing } from '@svc/platform';
import { type Exchange } from '../message-bus.port';
import { NestMessageBus } from '../nest-message-bus';
import { MessagePattern, Topic } from '../patterns';
import { InProcessBroker } from './in-process-broker';
import { InProcessClient } from './in-process.client';
import { InProcessServer } from './in-process.server';

/** The trace the handlers saw active, by what they handled. */
const seen: Record<string, { traceId?: string; spanId?: string }> = {};

@Controller()
class TracedController {
  @OnMessage(MessagePattern.quote)
  async quote(@Payload() payload: { n: number }) {
    await new Promise((r) => setTimeout(r, 5)); // the context survives the handler's own awaits
    seen['quote'] = traceLogFields();
    return { n: payload.n };
  }

  @EventPattern(Topic.attemptLifecycle)
  lifecycle() {
    seen['lifecycle'] = traceLogFields();
  }
}

@Module({ controllers: [TracedController] })
class TracedModule {}

type Exchanges = { [MessagePattern.quote]: Exchange<{ n: number }, { n: number }> };

describe('in-process bus: the trace context crosses it without headers (AsyncLocalStorage)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let server: INestMicroservice;
  let bus: NestMessageBus<Exchanges>;

  beforeAll(async () => {
    tracing = startTracing(
      { serviceName: 'bus-test', sampler: 'always_on', ratio: 1, tracesUrl: null, headers: {} },
      exporter,
    );
    const broker = new InProcessBroker();
    server = await NestFactory.createMicroservice(TracedModule, {
      strategy: new InProcessServer(broker),
      logger: false,
    });
    await server.listen();
    bus = new NestMessageBus<Exchanges>(new InProcessClient(broker));
  });
  afterAll(async () => {
    await server.close();
    await tracing.shutdown();
  });

  it.each([
    ['quote', () => bus.request(MessagePattern.quote, { n: 1 }, { timeoutMs: 1000 })],
    ['lifecycle', () => bus.emit(Topic.attemptLifecycle, 'at_1', { n: 1 })],
  ] as const)(
    '%s: the handler span is the child of the send span, in the caller trace',
    async (name, send) => {
      exporter.reset();
      await inSpan('caller', { kind: SpanKind.SERVER }, async () => {
        await send();
      });
      const spans = exporter.getFinishedSpans();
      const caller = spans.find((s) => s.name === 'caller')!;
      const sent = spans.find((s) => s.name.startsWith('send '))!;
      const handled = spans.find((s) => s.name.startsWith('process '))!;
      expect(sent.parentSpanContext?.spanId).toBe(caller.spanContext().spanId);
      expect(handled.parentSpanContext?.spanId).toBe(sent.spanContext().spanId);
      expect(handled.kind).toBe(name === 'quote' ? SpanKind.SERVER : SpanKind.CONSUMER);
      expect(seen[name]).toEqual({
        traceId: caller.spanContext().traceId,
        spanId: handled.spanContext().spanId,
      });
    },
  );
});
