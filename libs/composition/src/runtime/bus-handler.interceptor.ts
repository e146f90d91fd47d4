import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { PATTERN_METADATA } from '@nestjs/microservices/constants';
import { HANDLER_DEADLINE_CODE } from '@svc/messaging';
import { type Logger } from '@svc/platform';
import { type Observable, TimeoutError, catchError, tap, throwError, timeout } from 'rxjs';

/** A bus handler ran past its deadline; nobody waits for its reply any more. */
export class HandlerDeadlineError extends Error {
  override readonly name = 'HandlerDeadlineError';
  constructor(
    readonly pattern: string,
    readonly deadlineMs: number,
  ) {
    super(`handler for ${pattern} ran past its ${deadlineMs} ms deadline`);
  }
}

/**
 * Bounds and logs every bus handler (request or event); HTTP handlers are left alone.
 *
 * Kafka hands a partition's messages to a handler one at a time, so one that never settles would stall every later
 * message of that partition. Past the deadline the handler is abandoned: a request gets an error reply (the gateway
 * answered 503 at its own deadline, which is not longer), an event is not acknowledged and comes again. The work is
 * idempotent (deterministic ids, expected revisions), so a late finish changes nothing.
 *
 * One log line per handled message carries the pattern, the gateway's requestId or the event key (an attemptId),
 * the duration and the outcome: logs of one request correlate across the five processes.
 */
@Injectable()
export class BusHandlerInterceptor implements NestInterceptor {
  constructor(
    private readonly deadlineMs: number,
    private readonly logger: Logger,
    /** Wall-clock time (the gateway stamps receivedAt with its own: instances' clocks must agree, as for leases). */
    private readonly now: () => number = Date.now,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const pattern = patternOf(context);
    const data = context.switchToRpc().getData<unknown>();
    const ids = correlationOf(data);
    // A request older than the deadline was answered 503 by the gateway already (review H4): it is not run, so a queue
    // that built up while a replica was slow costs no provider fan-out and no stale prepare.
    const age = ageOf(data, this.now());
    if (age !== null && age > this.deadlineMs) {
      this.logger.warn(
        { pattern, ...ids, ageMs: age, outcome: 'dropped' },
        'bus request dropped: past its deadline',
      );
      return throwError(
        () =>
          new RpcException({
            status: 'error',
            code: HANDLER_DEADLINE_CODE,
            message: `request for ${pattern} arrived ${age} ms after it was sent, past the ${this.deadlineMs} ms deadline`,
          }),
      );
    }
    const started = process.hrtime.bigint();
    const ms = () => Number((process.hrtime.bigint() - started) / 1000n) / 1000;
    return next.handle().pipe(
      timeout(this.deadlineMs),
      catchError((err: unknown) =>
        throwError(() =>
          err instanceof TimeoutError ? new HandlerDeadlineError(pattern, this.deadlineMs) : err,
        ),
      ),
      tap({
        complete: () => this.logger.info({ pattern, ...ids, ms: ms(), outcome: 'ok' }, 'bus message handled'),
        error: (err: unknown) =>
          this.logger.warn(
            { pattern, ...ids, ms: ms(), outcome: 'error', error: (err as Error)?.message ?? String(err) },
            'bus message failed',
          ),
      }),
      // The caller learns it was the deadline (it answers 503 as for its own timeout), not a generic failure.
      catchError((err: unknown) =>
        throwError(() =>
          err instanceof HandlerDeadlineError
            ? new RpcException({ status: 'error', code: HANDLER_DEADLINE_CODE, message: err.message })
            : err,
        ),
      ),
    );
  }
}

function patternOf(context: ExecutionContext): string {
  const declared: unknown = Reflect.getMetadata(PATTERN_METADATA, context.getHandler());
  const first = Array.isArray(declared) ? (declared[0] as unknown) : declared;
  return typeof first === 'string' ? first : context.getHandler().name;
}

/** How long ago the gateway received a FeatureRequest (its `receivedAt`); null for an event. */
function ageOf(data: unknown, now: number): number | null {
  if (typeof data !== 'object' || data === null) return null;
  const { requestId, receivedAt } = data as { requestId?: unknown; receivedAt?: unknown };
  return typeof requestId === 'string' && typeof receivedAt === 'number' ? now - receivedAt : null;
}

/** The gateway's requestId of a FeatureRequest, or the key of an event (attempt.lifecycle is keyed by attemptId). */
function correlationOf(data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null) return {};
  const d = data as { requestId?: unknown; partnerId?: unknown; key?: unknown };
  if (typeof d.requestId === 'string') return { requestId: d.requestId, partnerId: d.partnerId };
  if (typeof d.key === 'string') return { key: d.key };
  return {};
}
