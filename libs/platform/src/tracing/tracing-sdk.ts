import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { type TracingSettings } from './tracing-settings';

/**
 * The OpenTelemetry SDK part of startTracing, in its own module so that it is loaded only when tracing is on. Spans
 * go to the OTLP/HTTP exporter in batches, or, for tests, to `exporter` one by one (an InMemorySpanExporter).
 */
export function createTracerProvider(settings: TracingSettings, exporter?: SpanExporter): TracerProvider {
  return new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: samplerOf(settings),
    spanProcessors: [
      exporter
        ? new SimpleSpanProcessor({ exporter })
        : new BatchSpanProcessor({
            exporter: new OTLPTraceExporter({
              headers: settings.headers,
              ...(settings.tracesUrl === null ? {} : { url: settings.tracesUrl }),
            }),
          }),
    ],
  });
}

/** AsyncLocalStorage context and W3C trace-context propagation, process-wide. */
export function registerContextAndPropagation(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

function samplerOf({ sampler, ratio }: TracingSettings): Sampler {
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}
