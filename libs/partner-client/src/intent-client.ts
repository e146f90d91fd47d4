import type {
  AttemptSearchRequest,
  AttemptSearchResponse,
  AttemptSnapshot,
  AttemptSummary,
  OperationId,
  PingResponse,
  PrepareRequest,
  PrepareResponse,
  QuoteRequest,
  QuoteResponse,
  SubmittedRequest,
  TransactionAttemptResponse,
  WebhookEvent,
  WebhookEventKind,
  WebhookEventRecord,
  WebhookEventsResponse,
  WebhookRecoverRequest,
  WebhookRecoverResponse,
  WebhookRedeliverResponse,
} from './generated/api-types';
import { toIntentApiError } from './errors/intent-api-error';
import { PartnerClient } from './partner-client';
import { type PartnerClientOptions, type PostOptions } from './partner-client-options';
import { type PartnerResponse } from './partner-response';
import { AttemptEventsError, type FollowOptions } from './sse/follow-attempt-events';

/** One event of the live status stream, typed: the same id, kind and body as its webhook. */
export interface AttemptEvent {
  /** The eventId; pass it as `lastEventId` to resume after it. */
  id: string;
  event: WebhookEventKind;
  data: WebhookEvent;
}

/**
 * The typed, throwing client of the External Intent API: one method per operation of docs/openapi.json, taking
 * and returning the generated types. A non-2xx answer throws its IntentApiError subclass (AuthenticationError,
 * ValidationError, NotFoundError, ConflictError, RateLimitedError, ServerError) after the retries that are safe;
 * no answer at all throws PartnerClientError. Signing, persisted Idempotency-Keys and retries are PartnerClient's
 * (available as `raw`, which returns every answer as data).
 */
export class IntentClient {
  readonly raw: PartnerClient;

  constructor(options: PartnerClientOptions | PartnerClient) {
    this.raw = options instanceof PartnerClient ? options : new PartnerClient(options);
  }

  /** `GET /ping`: checks the credentials and the clock. */
  async ping(): Promise<PingResponse> {
    return ok(await this.raw.ping());
  }

  /** `POST /intents/quote`: an intent session with its plan. */
  async quote(body: QuoteRequest, opts?: PostOptions): Promise<QuoteResponse> {
    return ok(await this.raw.quote(body, opts));
  }

  /** `POST /intents/{intentSessionId}/prepare`: the attempt, its chain actions and the authorization to sign. */
  async prepare(
    intentSessionId: string,
    body: PrepareRequest = {},
    opts?: PostOptions,
  ): Promise<PrepareResponse> {
    return ok(await this.raw.prepare(intentSessionId, body, opts));
  }

  /** `POST /attempts/{attemptId}/submitted`: the wallet's evidence (tx hashes or bundle id, and the signature). */
  async submitted(attemptId: string, body: SubmittedRequest, opts?: PostOptions): Promise<AttemptSnapshot> {
    return ok(await this.raw.submitted(attemptId, body, opts));
  }

  /** `GET /attempts/{attemptId}/status`: the attempt's snapshot, the source of truth. */
  async status(attemptId: string): Promise<AttemptSnapshot> {
    return ok(await this.raw.status(attemptId));
  }

  /** `POST /attempts/search`: one page; `attempts(search)` iterates over every page. */
  async searchAttempts(body: AttemptSearchRequest, opts?: PostOptions): Promise<AttemptSearchResponse> {
    return ok(await this.raw.searchAttempts(body, opts));
  }

  /** `GET /transactions/{chainId}/{txHash}/attempt`: the attempt that knows this transaction. */
  async transactionAttempt(chainId: number | string, txHash: string): Promise<TransactionAttemptResponse> {
    return ok(await this.raw.transactionAttempt(chainId, txHash));
  }

  /** `GET /webhooks/events`: the first page of your webhook events, oldest first. */
  async webhookEvents(): Promise<WebhookEventsResponse> {
    return ok(await this.raw.webhookEvents());
  }

  /** `GET /webhooks/events/after/{cursor}`: the page after `cursor` (a previous page's `nextCursor`, as is). */
  async webhookEventsAfter(cursor: string): Promise<WebhookEventsResponse> {
    return ok(await this.raw.webhookEvents(cursor));
  }

  /** `POST /webhooks/redeliver/{eventId}`: sends one event's webhook again. */
  async webhookRedeliver(eventId: string, opts?: PostOptions): Promise<WebhookRedeliverResponse> {
    return ok(await this.raw.redeliverWebhook(eventId, opts));
  }

  /** `POST /webhooks/recover`: sends every ended event of `[from, to)` again, a page per call (`continuation`). */
  async webhookRecover(body: WebhookRecoverRequest, opts?: PostOptions): Promise<WebhookRecoverResponse> {
    return ok(await this.raw.recoverWebhooks(body, opts));
  }

  /**
   * `GET /attempts/{attemptId}/events`: the live status stream as an async iterator, each lifecycle event once, in
   * order, until the attempt ends (reconnecting with Last-Event-ID when the connection drops). A refusal throws
   * its IntentApiError (e.g. NotFoundError `attempt_not_found`).
   *
   *     for await (const e of client.attemptEvents(attemptId)) console.log(e.event, e.data.status);
   */
  async *attemptEvents(
    attemptId: string,
    options: FollowOptions = {},
  ): AsyncGenerator<AttemptEvent, void, undefined> {
    try {
      for await (const e of this.raw.followAttemptEvents(attemptId, options)) {
        yield { id: e.id, event: e.event as WebhookEventKind, data: e.data as unknown as WebhookEvent };
      }
    } catch (error) {
      if (error instanceof AttemptEventsError) throw toIntentApiError(error.response);
      throw error;
    }
  }

  /**
   * Every attempt matching `search`, newest first, across pages (`searchAttempts` with each `nextCursor`, the same
   * filters). `limit` is the page size.
   */
  async *attempts(
    search: Omit<AttemptSearchRequest, 'cursor'>,
  ): AsyncGenerator<AttemptSummary, void, undefined> {
    let cursor: string | null | undefined;
    do {
      const body = (cursor ? { ...search, cursor } : search) as AttemptSearchRequest;
      const page = await this.searchAttempts(body);
      yield* page.attempts;
      cursor = page.nextCursor;
    } while (cursor);
  }

  /**
   * Every webhook event recorded so far, oldest first, across pages (`webhookEvents`, then `webhookEventsAfter`
   * while `hasMore`). `after` starts after a cursor kept from an earlier run.
   */
  async *webhookEventsAll(after?: string): AsyncGenerator<WebhookEventRecord, void, undefined> {
    let page = after === undefined ? await this.webhookEvents() : await this.webhookEventsAfter(after);
    for (;;) {
      yield* page.events;
      if (!page.hasMore) return;
      page = await this.webhookEventsAfter(page.nextCursor);
    }
  }
}

/** Each operationId of the contract and the IntentClient method that performs it. */
export const operations = {
  ping: 'ping',
  quote: 'quote',
  prepare: 'prepare',
  submitted: 'submitted',
  status: 'status',
  searchAttempts: 'searchAttempts',
  transactionAttempt: 'transactionAttempt',
  webhookEvents: 'webhookEvents',
  webhookEventsAfter: 'webhookEventsAfter',
  webhookRedeliver: 'webhookRedeliver',
  webhookRecover: 'webhookRecover',
  attemptEvents: 'attemptEvents',
} as const satisfies Record<OperationId, keyof IntentClient>;

function ok<T>(answer: PartnerResponse): T {
  if (answer.status >= 200 && answer.status < 300) return answer.body as T;
  throw toIntentApiError(answer);
}
