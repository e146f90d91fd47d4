import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import type * as TracingSdk from './tracing-sdk';
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
  // The SDK and its OTLP exporter (about 230 modules) load only here, when tracing is on: a service that does not
  // trace does not carry them.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('./tracing-sdk') as typeof TracingSdk;
  const provider = sdk.createTracerProvider(settings, exporter);
  sdk.registerContextAndPropagation();
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
