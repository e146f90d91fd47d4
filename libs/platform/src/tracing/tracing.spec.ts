import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { createLogger } from '../logging/logger';
import { readEnv } from '../config/read-env';
import { contextFromCarrier, inSpan, SpanKind, traceCarrier, traceLogFields } from './spans';
import { startTracing, tracingEnabled } from './start-tracing';
import { TracingEnv } from './tracing-env.dto';
import { tracingSettings } from './tracing-settings';

const settingsOf = (env: NodeJS.ProcessEnv) => tracingSettings(readEnv({ t: TracingEnv }, env).t, 'quoting');

describe('tracingSettings: when tracing is on', () => {
  it('is off by default, with OTEL_SDK_DISABLED=true and with OTEL_TRACES_EXPORTER=none', () => {
    expect(settingsOf({})).toBeNull();
    expect(
      settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBeNull();
    expect(
      settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeNull();
  });

  it('is on with an OTLP endpoint, traces going to <endpoint>/v1/traces unless a traces endpoint is set', () => {
    expect(settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toEqual({
      serviceName: 'quoting',
      sampler: 'parentbased_always_on',
      ratio: 1,
      tracesUrl: 'http://c:4318/v1/traces',
      headers: {},
    });
    expect(
      settingsOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://t.example/traces',
        OTEL_SERVICE_NAME: 'svc-quoting',
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.25',
        OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20t0ken, x-tenant = svc',
      }),
    ).toEqual({
      serviceName: 'svc-quoting',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
      tracesUrl: 'https://t.example/traces',
      headers: { authorization: 'Bearer t0ken', 'x-tenant': 'svc' },
    });
  });

  it("is on with OTEL_TRACES_EXPORTER=otlp alone, at the exporter's default URL", () => {
    expect(settingsOf({ OTEL_TRACES_EXPORTER: 'otlp' })?.tracesUrl).toBeNull();
  });

  it('refuses bad values, naming the variable', () => {
    expect(() => settingsOf({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(/OTEL_TRACES_EXPORTER/);
    expect(() => settingsOf({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => settingsOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(
      /OTEL_EXPORTER_OTLP_ENDPOINT/,
    );
    expect(() => settingsOf({ OTEL_SDK_DISABLED: 'yes' })).toThrow(/OTEL_SDK_DISABLED/);
    expect(() => settingsOf({ OTEL_EXPORTER_OTLP_HEADERS: 'Bearer s3cret' })).toThrow(
      /^(?![\s\S]*s3cret)[\s\S]*OTEL_EXPORTER_OTLP_HEADERS/,
    );
  });
});

function logLines() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { lines, logger: createLogger({ level: 'info', name: 'unit', destination }) };
}

describe('tracing off', () => {
  it('registers nothing: spans still run their work, no carrier is produced, logs carry no trace id', async () => {
    const tracing = startTracing(null);
    expect([tracing.enabled, tracingEnabled()]).toEqual([false, false]);
    const { lines, logger } = logLines();
    const carrier = await inSpan('work', {}, () => {
      logger.info('inside');
      return Promise.resolve(traceCarrier());
    });
    expect(carrier).toEqual({});
    expect(lines[0]).not.toHaveProperty('traceId');
  });
});

describe('tracing on (in-memory exporter)', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: ReturnType<typeof startTracing>;
  beforeAll(() => {
    tracing = startTracing(
      { serviceName: 'unit', sampler: 'always_on', ratio: 1, tracesUrl: null, headers: {} },
      exporter,
    );
  });
  afterAll(() => tracing.shutdown());
  beforeEach(() => exporter.reset());

  it('nests spans across awaits and carries the parent over a W3C carrier', async () => {
    const { lines, logger } = logLines();
    const carrier = await inSpan('outer', { kind: SpanKind.SERVER }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return inSpan('inner', {}, () => {
        logger.info('inside');
        return Promise.resolve(traceCarrier());
      });
    });
    expect(carrier.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await inSpan('remote', { kind: SpanKind.CONSUMER, parent: contextFromCarrier(carrier) }, () =>
      Promise.resolve(),
    );
    const [inner, outer, remote] = exporter.getFinishedSpans();
    expect([inner?.name, outer?.name, remote?.name]).toEqual(['inner', 'outer', 'remote']);
    const traceId = outer.spanContext().traceId;
    expect([inner, remote].map((s) => s.spanContext().traceId)).toEqual([traceId, traceId]);
    expect(inner.parentSpanContext?.spanId).toBe(outer.spanContext().spanId);
    expect(remote.parentSpanContext?.spanId).toBe(inner.spanContext().spanId);
    expect(lines[0]).toEqual(
      expect.objectContaining({ traceId, spanId: inner.spanContext().spanId, msg: 'inside' }),
    );
    expect(traceLogFields()).toEqual({});
  });

  it('marks a failed span with the error name only, and rethrows', async () => {
    await expect(
      inSpan('fails', {}, () => Promise.reject(new RangeError('key=sk_live_123 leaked?'))),
    ).rejects.toThrow(RangeError);
    const [span] = exporter.getFinishedSpans();
    expect(span?.status).toEqual({ code: 2, message: 'RangeError' });
    expect(JSON.stringify(span?.attributes)).not.toContain('sk_live');
  });

  it('reads a carrier of Kafka header Buffers', async () => {
    const carrier = await inSpan('sender', {}, () => Promise.resolve(traceCarrier()));
    const headers = { traceparent: Buffer.from(carrier.traceparent ?? '') };
    await inSpan('receiver', { parent: contextFromCarrier(headers) }, () => Promise.resolve());
    const [sender, receiver] = exporter.getFinishedSpans();
    expect(receiver?.parentSpanContext?.spanId).toBe(sender?.spanContext().spanId);
  });
});
