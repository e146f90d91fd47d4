import { IsIn, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { EnvNumber, EnvSecret, IsEnvBoolean } from '../config/read-env';

export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

export type TracesSampler = (typeof TRACES_SAMPLERS)[number];

/**
 * The OpenTelemetry variables the apps read (the standard `OTEL_*` names). Tracing is off unless an OTLP exporter is
 * asked for (tracingSettings says exactly when). The OTLP exporter reads its own further standard variables
 * (`OTEL_EXPORTER_OTLP_TIMEOUT`, `..._COMPRESSION`, ...) itself.
 */
export class TracingEnv {
  /** `true` turns tracing off whatever else is set (the SDK's standard kill switch). */
  @IsEnvBoolean()
  OTEL_SDK_DISABLED = false;

  /** `otlp` (OTLP over HTTP) or `none`; unset = `otlp` when an OTLP endpoint is set, else none. */
  @IsOptional()
  @IsIn(['otlp', 'none'])
  OTEL_TRACES_EXPORTER?: 'otlp' | 'none';

  /** The collector's base URL (`http://collector:4318`); traces go to `<it>/v1/traces`. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The full traces URL, when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  @IsOptional()
  @Matches(/^https?:\/\/[^\s]+$/, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `key=value,key2=value2` sent with every export (a collector's credential): a secret, never logged. */
  @EnvSecret()
  @IsOptional()
  @Matches(/^\s*[^=,\s]+\s*=[^,]*(,\s*[^=,\s]+\s*=[^,]*)*$/, {
    message: 'OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas',
  })
  OTEL_EXPORTER_OTLP_HEADERS?: string;

  /** The service name on every span; unset = the app's name (`gateway`, `quoting`, ..., `standalone`). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  OTEL_SERVICE_NAME?: string;

  @IsIn(TRACES_SAMPLERS)
  OTEL_TRACES_SAMPLER: TracesSampler = 'parentbased_always_on';

  /** The ratio of the `*traceidratio` samplers, 0 to 1. */
  @EnvNumber()
  @IsNumber()
  @Min(0)
  @Max(1)
  OTEL_TRACES_SAMPLER_ARG = 1;
}
