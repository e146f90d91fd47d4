import { Inject, Injectable, type OnModuleDestroy, Optional } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { API_VERSION, HEADER } from '@svc/contract';
import {
  type AttemptState,
  attemptDecider,
  attemptStreamId,
  endsAttempt,
  lifecycleOccurredAt,
  webhookBody,
  webhookEventOf,
} from '@svc/domain';
import { EVENT_STORE, type EventStore, foldStoredEvents, type RecordedEvent } from '@svc/event-store';
import { type Logger } from '@svc/platform';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { type ServerResponse } from 'node:http';
import { GATEWAY_LOGGER } from '../gateway.tokens';
import { ApiError } from '../http/api-error';
import { AttemptLiveFeed } from './attempt-live-feed';
import { DEFAULT_LIVE_STATUS_LIMITS, LIVE_STATUS_LIMITS, type LiveStatusLimits } from './live-status-limits';

/**
 * Events one read of a stream takes at most: an append of more (a long-tracked attempt's stream, read by a stream
 * that fell behind) is read in pages, so a read's work and memory stay bounded whatever the stream holds.
 */
const READ_PAGE = 256;

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
 * (a long-lived response cannot go over the request/reply bus): a catch-up read, then one read of its attempt's
 * stream each time the process-wide AttemptLiveFeed says something was appended to it, and none while nothing is.
 * It works whether or not the partner has a callback URL. Bounded per partner and per instance (LiveStatusLimits);
 * a client that stops reading is closed rather than buffered for.
 */
@Injectable()
export class AttemptEventStreams implements OnModuleDestroy {
  private readonly limits: LiveStatusLimits;
  /** Open streams per partner, this instance. */
  private readonly perPartner = new Map<string, number>();
  private total = 0;
  /** The open streams (ended at shutdown), and what each `serve` still has to finish. */
  private readonly open = new Set<LiveStream>();
  private readonly serving = new Set<Promise<void>>();
  private shuttingDown = false;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
    private readonly feed: AttemptLiveFeed,
    @Optional() @Inject(LIVE_STATUS_LIMITS) limits?: Partial<LiveStatusLimits>,
  ) {
    this.limits = { ...DEFAULT_LIVE_STATUS_LIMITS, ...limits };
  }

  /** Streams currently open for a partner (tests, diagnostics). */
  openFor(partnerId: string): number {
    return this.perPartner.get(partnerId) ?? 0;
  }

  /** Streams currently open on this instance (tests, diagnostics). */
  get openStreams(): number {
    return this.total;
  }

  /**
   * Checks the attempt, Last-Event-ID and the limits (throwing an ApiError before anything is sent), then takes over
   * the response and streams until the attempt ends, the client goes away or the service stops.
   */
  async serve(req: FastifyRequest, res: FastifyReply, request: LiveStatusRequest): Promise<void> {
    const { partnerId } = request;
    const catchUp = await this.catchUp(req, request);
    this.admit(partnerId);
    let finished = (): void => undefined;
    const served = new Promise<void>((resolve) => (finished = resolve));
    this.serving.add(served);
    try {
      await this.stream(res, request, catchUp);
    } finally {
      this.release(partnerId);
      this.serving.delete(served);
      finished();
    }
  }

  /** At shutdown: every open stream ends (a client reconnects elsewhere with Last-Event-ID). */
  async onModuleDestroy(): Promise<void> {
    this.shuttingDown = true;
    for (const stream of this.open) stream.close();
    await Promise.all([...this.serving]);
  }

  /** The catch-up read, and the checks of the attempt and of Last-Event-ID on it. */
  private async catchUp(req: FastifyRequest, request: LiveStatusRequest): Promise<CatchUp> {
    const { partnerId, attemptId } = request;
    const history = attemptId === '' ? [] : await this.store.readStream(attemptStreamId(attemptId));
    const state = history.reduce(evolve, attemptDecider.initialState);
    if (state.status === 'none' || state.prepared.partnerId !== partnerId)
      throw new ApiError('attempt_not_found', `no attempt ${attemptId} for this partner`);
    return { history, after: resumeAfter(req.headers['last-event-id'], history) };
  }

  /** Counts the stream in, or refuses it: the partner's limit, then the instance's. */
  private admit(partnerId: string): void {
    const { perPartner, perInstance } = this.limits;
    if (this.openFor(partnerId) >= perPartner)
      throw new ApiError(
        'live_stream_limit_reached',
        `at most ${perPartner} live status streams may be open at once`,
        { retryAfterSeconds: 5 },
      );
    if (this.total >= perInstance)
      throw new ApiError(
        'live_stream_limit_reached',
        `this service instance holds its maximum of ${perInstance} live status streams`,
        { retryAfterSeconds: 5 },
      );
    this.perPartner.set(partnerId, this.openFor(partnerId) + 1);
    this.total++;
  }

  private release(partnerId: string): void {
    this.total--;
    const left = this.openFor(partnerId) - 1;
    if (left <= 0) this.perPartner.delete(partnerId);
    else this.perPartner.set(partnerId, left);
  }

  private async stream(res: FastifyReply, request: LiveStatusRequest, catchUp: CatchUp): Promise<void> {
    const { attemptId } = request;
    const { after } = catchUp;
    const streamId = attemptStreamId(attemptId);
    const stream = new LiveStream();
    // Registered after the catch-up read, so the first turn of the loop reads once more (`pending` starts true):
    // an event appended between the catch-up read and the registration is in that read. An attempt that already
    // ended has nothing more to wait for.
    const watch = catchUp.history.some((event) => endsAttempt(event.type))
      ? { close: () => undefined }
      : await this.feed.watch(streamId, { appended: () => stream.appended(), failed: () => stream.close() });
    this.open.add(stream);
    if (this.shuttingDown) stream.close();
    const raw = res.raw;
    const close = () => stream.close();
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
      const write = (frame: string): void => {
        if (stream.closed) return;
        raw.write(frame);
        if (raw.writableLength > this.limits.maxBufferedBytes) {
          this.logger.warn(
            { requestId: request.requestId, attemptId, buffered: raw.writableLength },
            'live status stream closed: its client is too far behind',
          );
          stream.close();
          raw.destroy();
        }
      };
      write(': live status of the attempt\n\n');
      let folded: AttemptState = attemptDecider.initialState;
      let next = 0;
      let ended = false;
      let quietSince = Date.now();
      /** Sends the events after `next`; stops at a full socket (what is left is read again once it drained). */
      const emit = (events: readonly RecordedEvent[]) => {
        for (const event of events) {
          if (event.revision < next) continue;
          if (raw.writableNeedDrain) {
            stream.readAgain();
            return;
          }
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
            if (body !== null) write(`id: ${event.id}\nevent: ${kind}\ndata: ${body}\n\n`);
            quietSince = Date.now();
          }
          if (endsAttempt(event.type)) ended = true;
        }
      };
      emit(catchUp.history);
      catchUp.history = []; // an open stream keeps its fold, not the events it was folded from
      while (!ended && !stream.closed) {
        if (raw.writableNeedDrain) {
          // The client is behind: nothing more is read or written for it until its socket drains, within a bound
          // of time (a client that stopped reading holds no slot for ever); the bound of bytes is checked on write.
          if (!(await stream.drained(raw, this.limits.drainTimeoutMs))) {
            if (stream.closed) break;
            this.logger.warn(
              { requestId: request.requestId, attemptId },
              'live status stream closed: its client stopped reading',
            );
            stream.close();
            raw.destroy();
          }
          continue;
        }
        if (stream.takeAppended()) {
          const page = await this.store.readStream(streamId, { fromRevision: next, maxCount: READ_PAGE });
          if (page.length === READ_PAGE) stream.readAgain();
          emit(page);
          continue;
        }
        const quietFor = Date.now() - quietSince;
        if (quietFor >= this.limits.heartbeatMs) {
          write(': heartbeat\n\n');
          quietSince = Date.now();
          continue;
        }
        await stream.idle(this.limits.heartbeatMs - quietFor);
      }
    } catch (error) {
      this.logger.warn(
        { requestId: request.requestId, attemptId, error: (error as Error)?.message },
        'live status stream ended on an error',
      );
    } finally {
      watch.close();
      this.open.delete(stream);
      raw.off('close', close);
      raw.off('error', close);
      if (!raw.writableEnded && !raw.destroyed) raw.end();
    }
  }
}

/** What the catch-up read found: the attempt's events, and the revision Last-Event-ID resumes after (-1: none). */
interface CatchUp {
  history: RecordedEvent[];
  after: number;
}

/**
 * One open stream's wake-ups: appends signalled by the feed (coalesced into one flag, so any number of them before
 * the next read cost that one read), its close, its heartbeat timer and its socket draining.
 */
class LiveStream {
  closed = false;
  /** True at first: the read after registering with the feed. */
  private pending = true;
  private waiter: (() => void) | undefined;

  appended(): void {
    this.pending = true;
    this.waiter?.();
  }

  close(): void {
    this.closed = true;
    this.waiter?.();
  }

  /** The stream stopped sending part of what it read (its client was behind): it reads from there again. */
  readAgain(): void {
    this.pending = true;
  }

  /** Whether an append was signalled since the last call (clears it: what is appended from now on sets it again). */
  takeAppended(): boolean {
    const pending = this.pending;
    this.pending = false;
    return pending;
  }

  /** Resolves on an append, the close, or after `ms` (the next heartbeat). */
  idle(ms: number): Promise<void> {
    if (this.pending || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.waiter = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.waiter = done;
    });
  }

  /** Resolves true once `raw` drained, false on the close or after `ms` (appends wait: they are read afterwards). */
  drained(raw: ServerResponse, ms: number): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (drained: boolean): void => {
        clearTimeout(timer);
        raw.off('drain', onDrain);
        this.waiter = undefined;
        resolve(drained);
      };
      const onDrain = (): void => done(true);
      const timer = setTimeout(() => done(false), ms);
      raw.once('drain', onDrain);
      this.waiter = () => {
        if (this.closed) done(false);
      };
    });
  }
}

/** One stored event folded by the attempt's rules (a newer build's type skipped, a malformed event refused). */
function evolve(state: AttemptState, event: RecordedEvent): AttemptState {
  return foldStoredEvents(attemptDecider, state, [event]);
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
