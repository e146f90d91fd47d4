import { type LoggerService } from '@nestjs/common';
import { type Logger } from 'pino';

/** Nest's own contexts, whose routine lines ("Mapped ... route", "dependencies initialized") are debug. */
const NEST_INTERNAL = /^(Nest|InstanceLoader|RoutesResolver|RouterExplorer|ServerKafka|ClientKafka|Server$)/;

/**
 * Routes Nest's log lines into the JSON logger. A message that is an object becomes fields of the line (its `msg`
 * the message), so services log `{ msg, attemptId }` and the ids are searchable, not buried in text.
 */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string) {
    if (context && NEST_INTERNAL.test(context)) this.logger.debug(...line(message, context));
    else this.logger.info(...line(message, context));
  }
  error(message: unknown, trace?: string, context?: string) {
    const [fields, msg] = line(message, context);
    this.logger.error({ ...fields, ...(trace ? { trace } : {}) }, msg);
  }
  warn(message: unknown, context?: string) {
    this.logger.warn(...line(message, context));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug(...line(message, context));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace(...line(message, context));
  }
}

function line(message: unknown, context: string | undefined): [Record<string, unknown>, string] {
  if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
    const { msg, ...fields } = message as Record<string, unknown>;
    return [{ context, ...fields }, typeof msg === 'string' ? msg : ''];
  }
  return [{ context }, message instanceof Error ? message.message : String(message)];
}
