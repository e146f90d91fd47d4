import pino, { type Logger } from 'pino';
import { traceLogFields } from '../tracing/spans';

export type { Logger } from 'pino';

/** Fields that could carry a secret or a signature are redacted by path. */
export const REDACTED_PATHS = [
  'secret',
  '*.secret',
  'headers["x-signature"]',
  '*.headers["x-signature"]',
  'signature',
  '*.signature',
];

export interface LoggerOptions {
  level: string;
  name: string;
  destination?: pino.DestinationStream;
  /**
   * Known secret values (partner secrets). Any log line that would contain one, for example inside an
   * exception message from a dependency, has it replaced before the line is written.
   */
  secrets?: readonly string[];
}

/**
 * JSON logs, with secrets kept out twice over: by field path and by value. A line written while a span is active
 * carries its `traceId` and `spanId` (nothing when tracing is off).
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? [])
    .filter((s) => s.length >= 8)
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin: traceLogFields,
      hooks: secrets.length
        ? { streamWrite: (line) => secrets.reduce((out, s) => out.split(s).join('[redacted]'), line) }
        : {},
    },
    options.destination,
  );
}

/**
 * What a log line may say about an error (L8): its class, message, code and stack, and the same of its causes. Not
 * the error's other fields, where clients put the request they made (viem's `url` and `details`, a store client's
 * connection string, a response body); the message still goes through the by-value scrub of `createLogger`.
 */
export function errorLogFields(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message,
    ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    stack: error.stack,
    ...(error.cause !== undefined && depth < 3 ? { cause: errorLogFields(error.cause, depth + 1) } : {}),
  };
}
