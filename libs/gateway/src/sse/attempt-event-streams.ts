import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { API_VERSION, HEADER, WEBHOOK_CONTROL_LIMITS } from '@svc/contract';
import {
  type AttemptEvent,
  type AttemptState,
  attemptDecider,
  attemptStreamId,
  endsAttempt,
  lifecycleOccurredAt,
  webhookBody,
  webhookEventOf,
} from '@svc/domain';
import { EVENT_STORE, type EventStore, type RecordedEvent } from '@svc/event-store';
import { type Logger } from '@svc/platform';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { ApiError } from '../http/api-error';

/** How often an open stream reads its attempt's stream for new events. */
export const LIVE_STATUS_POLL_MS = 200;

/** Who asked for which attempt's stream, once the request passed every check of a GET. */
export interface LiveStatusRequest {
  partnerId: string;
  requestId: string;
  attemptId: string;
}

/**
 * The live status stream, `GET /attempts/{attemptId}/events`, as Server-Sent Events: the attempt's lifecycle events
 * with the same ids, types and bodies as its webhooks (`webhookBody` over the attempt folded up to each event),
 * from the beginning or after `Last-Event-ID`, then live until the attempt ends. It reads the event store directly
 * (a long-lived response cannot go over the request/reply bus): a catch-up read, then a read of what was appended
 * every LIVE_STATUS_POLL_MS. It works whether or not the partner has a callback URL.
 */
@Injectable()
export class AttemptEventStreams implements OnModuleDestroy {
  /** Open streams per partner, this instance. */
  private readonly perPartner = new Map<string, number>();
  /** Ends every open stream (at shutdown). */
  private readonly closers = new Set<() => void>();

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {}

  /** Streams currently open for a partner (tests, diagnostics). */
  openFor(partnerId: string): number {
    return this.perPartner.get(partnerId) ?? 0;
  }

  /**
   * Checks the attempt and Last-Event-ID (throwing an ApiError before anything is sent), then takes over the
   * response and streams until the attempt ends, the client goes away or the service stops.
   */
  async serve(req: FastifyRequest, res: FastifyReply, request: LiveStatusRequest): Promise<void> {
    const { partnerId, attemptId } = request;
    const streamId = attemptStreamId(attemptId);
    const history = attemptId === '' ? [] : await this.store.readStream(streamId);
    const state = history.reduce(evolve, attemptDecider.initialState);
    if (state.status === 'none' || state.prepared.partnerId !== partnerId)
      throw new ApiError('attempt_not_found', `no attempt ${attemptId} for this partner`);
    const after = resumeAfter(req.headers['last-event-id'], history);
    if (this.openFor(partnerId) >= WEBHOOK_CONTROL_LIMITS.maxLiveStreamsPerPartner)
      throw new ApiError(
        'live_stream_limit_reached',
        `at most ${WEBHOOK_CONTROL_LIMITS.maxLiveStreamsPerPartner} live status streams may be open at once`,
        { retryAfterSeconds: 5 },
      );

    this.perPartner.set(partnerId, this.openFor(partnerId) + 1);
    let closed = false;
    let wake: (() => void) | null = null;
    const close = () => {
      closed = true;
      wake?.();
    };
    this.closers.add(close);
    const raw = res.raw;
    raw.on('close', close);
    raw.on('error', close);
    void res.hijack();
    try {
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        [HEADER.apiVersion]: API_VERSION,
        'x-request-id': request.requestId,
      });
      raw.write(': live status of the attempt\n\n');
      let folded: AttemptState = attemptDecider.initialState;
      let next = 0;
      let ended = false;
      let quietSince = Date.now();
      const emit = (events: readonly RecordedEvent[]) => {
        for (const event of events) {
          if (event.revision < next) continue;
          folded = evolve(folded, event);
          next = event.revision + 1;
          const kind = webhookEventOf(event.type);
          if (kind !== null && event.revision > after) {
            const body = webhookBody(
              folded,
              {
                eventId: event.id,
                event: kind,
                occurredAt: lifecycleOccurredAt(event.data, event.recordedAt),
              },
              { chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`) },
            );
            if (body !== null) raw.write(`id: ${event.id}\nevent: ${kind}\ndata: ${body}\n\n`);
            quietSince = Date.now();
          }
          if (endsAttempt(event.type)) ended = true;
        }
      };
      emit(history);
      while (!ended && !closed) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, LIVE_STATUS_POLL_MS);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = null;
        if (closed) break;
        emit(await this.store.readStream(streamId, { fromRevision: next }));
        if (!ended && Date.now() - quietSince >= WEBHOOK_CONTROL_LIMITS.heartbeatMs) {
          raw.write(': heartbeat\n\n');
          quietSince = Date.now();
        }
      }
    } catch (error) {
      this.logger.warn(
        { requestId: request.requestId, attemptId, error: (error as Error)?.message },
        'live status stream ended on an error',
      );
    } finally {
      this.closers.delete(close);
      this.perPartner.set(partnerId, this.openFor(partnerId) - 1);
      if (this.openFor(partnerId) <= 0) this.perPartner.delete(partnerId);
      if (!raw.writableEnded) raw.end();
    }
  }

  /** At shutdown: every open stream ends (a client reconnects elsewhere with Last-Event-ID). */
  onModuleDestroy(): void {
    for (const close of this.closers) close();
  }
}

function evolve(state: AttemptState, event: RecordedEvent): AttemptState {
  return attemptDecider.evolve(state, { type: event.type, data: event.data } as AttemptEvent);
}

/** The revision to resume after: -1 from the start, else that of the lifecycle event Last-Event-ID names. */
function resumeAfter(header: string | string[] | undefined, history: readonly RecordedEvent[]): number {
  if (header === undefined) return -1;
  const id = typeof header === 'string' ? header.trim() : null;
  const event = id ? history.find((e) => e.id === id && webhookEventOf(e.type) !== null) : undefined;
  if (!event)
    throw new ApiError('invalid_last_event_id', 'Last-Event-ID names no lifecycle event of this attempt');
  return event.revision;
}
