import { context, propagation, trace } from '@opentelemetry/api';
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

export interface Tracing {
  readonly enabled: boolean;
  /** Exports what is still buffered, then unregisters everything (spans are no-ops again). */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: () => Promise.resolve() };
let running: Tracing | null = null;

/** Whether a tracer provider is registered: callers skip work that only feeds spans when it is not. */
export function tracingEnabled(): boolean {
  return running !== null;
}

/**
 * Registers the tracer provider, the W3C trace-context propagator and the AsyncLocalStorage context manager, once
 * per process, when `settings` is not null (tracingSettings). Spans go to the OTLP/HTTP exporter in batches, or, for
 * tests, to `exporter` one by one (an InMemorySpanExporter). With null settings nothing is registered.
 */
export function startTracing(settings: TracingSettings | null, exporter?: SpanExporter): Tracing {
  if (settings === null) return OFF;
  // Several apps in one process (tests): the first one's provider serves them all, and its owner shuts it down.
  if (running) return { enabled: true, shutdown: () => Promise.resolve() };
  const provider = new TracerProvider({
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
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  const tracing: Tracing = {
    enabled: true,
    shutdown: async () => {
      if (running !== tracing) return;
      running = null;
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
  running = tracing;
  return tracing;
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
