import {
  type Attributes,
  type Context,
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type TextMapGetter,
  trace,
} from '@opentelemetry/api';

export { SpanKind, SpanStatusCode, type Span, type Context } from '@opentelemetry/api';

/** The tracer every span of the service comes from (one instrumentation scope). */
export function serviceTracer() {
  return trace.getTracer('intent-service');
}

export interface InSpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; default the active context. */
  parent?: Context;
}

/**
 * Runs `fn` inside a new span (the active one while it runs) and ends it when `fn` settles. A failure sets the
 * span's status to error with the error's name only: messages may quote values, and spans never carry secrets.
 */
export async function inSpan<T>(
  name: string,
  options: InSpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const span = serviceTracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.name ?? 'Error' });
    throw err;
  } finally {
    span.end();
  }
}

/** W3C `traceparent` (and `tracestate`) of `ctx`, to carry in message headers or event metadata; {} when off. */
export function traceCarrier(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** Kafka header values arrive as Buffers (or arrays of them); metadata values as strings. */
const getter: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const raw = carrier[key];
    const value = Array.isArray(raw) ? (raw[0] as unknown) : raw;
    if (typeof value === 'string') return value;
    return Buffer.isBuffer(value) ? value.toString('utf8') : undefined;
  },
};

/** The remote parent carried in `carrier` (message headers, event metadata), or the root context when none. */
export function contextFromCarrier(carrier: Record<string, unknown> | undefined | null): Context {
  return carrier ? propagation.extract(ROOT_CONTEXT, carrier, getter) : ROOT_CONTEXT;
}

/** `traceId` and `spanId` of the active span, for log lines; {} when none. */
export function traceLogFields(): { traceId?: string; spanId?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}

/** A span the caller ends itself (an HTTP request's, which several hooks share); a root span unless `parent`. */
export function startSpan(name: string, options: InSpanOptions): Span {
  return serviceTracer().startSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    options.parent ?? ROOT_CONTEXT,
  );
}

/** Runs `fn` (and what it starts) with `span` active. */
export function withActiveSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/** Ends `span`, with error status when `failed` (a 5xx answer). */
export function endSpan(span: Span, failed: boolean): void {
  if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}

/** Whether a span is active (this work is part of a trace). */
export function inTrace(): boolean {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext !== undefined && isSpanContextValid(spanContext);
}

/** Runs `fn` with the remote parent carried in `carrier` (event metadata) as the active context. */
export function withRemoteParent<T>(carrier: Record<string, unknown> | undefined | null, fn: () => T): T {
  return context.with(contextFromCarrier(carrier), fn);
}
