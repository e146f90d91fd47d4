import pino, { type Logger } from 'pino';

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

/** JSON logs, with secrets kept out twice over: by field path and by value. */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = (options.secrets ?? [])
    .filter((s) => s.length >= 8)
    .flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]);
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      hooks: secrets.length
        ? { streamWrite: (line) => secrets.reduce((out, s) => out.split(s).join('[redacted]'), line) }
        : {},
    },
    options.destination,
  );
}
