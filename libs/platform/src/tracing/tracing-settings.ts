import { type TracesSampler, type TracingEnv } from './tracing-env.dto';

/** What startTracing sets up: where spans go, under which service name, sampled how. */
export interface TracingSettings {
  serviceName: string;
  sampler: TracesSampler;
  ratio: number;
  /** The traces URL; null = the exporter's own default (`http://localhost:4318/v1/traces`). */
  tracesUrl: string | null;
  /** Sent with every export (OTEL_EXPORTER_OTLP_HEADERS): may hold a credential, kept out of logs. */
  headers: Record<string, string>;
}

/**
 * The rule for "tracing on": OTEL_SDK_DISABLED is not `true`, OTEL_TRACES_EXPORTER is not `none`, and either
 * OTEL_TRACES_EXPORTER=otlp or an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or ..._TRACES_ENDPOINT) is set.
 * Otherwise null: no provider is registered, spans are no-ops, no header is added to any message.
 */
export function tracingSettings(env: TracingEnv, appName: string): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED || env.OTEL_TRACES_EXPORTER === 'none') return null;
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? env.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (env.OTEL_TRACES_EXPORTER !== 'otlp' && endpoint === undefined) return null;
  return {
    serviceName: env.OTEL_SERVICE_NAME ?? appName,
    sampler: env.OTEL_TRACES_SAMPLER,
    ratio: env.OTEL_TRACES_SAMPLER_ARG,
    tracesUrl:
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ??
      (env.OTEL_EXPORTER_OTLP_ENDPOINT === undefined
        ? null
        : `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`),
    headers: otlpHeaders(env.OTEL_EXPORTER_OTLP_HEADERS),
  };
}

/** `k1=v1,k2=v2` (values URL-encoded, as the OTLP exporter specification has it) as a record. */
export function otlpHeaders(value: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (value ?? '').split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const raw = pair.slice(at + 1).trim();
    let decoded = raw;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // not URL-encoded: taken as written
    }
    headers[pair.slice(0, at).trim()] = decoded;
  }
  return headers;
}
