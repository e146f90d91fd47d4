import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { apiPath, type ApiBase, parseApiBase, pathSegment } from './api-path';
import { IdempotencyConflictError } from './idempotency-conflict.error';
import { type IdempotencyRecord, type IdempotencyStore } from './idempotency/idempotency-store';
import { MemoryIdempotencyStore } from './idempotency/memory-idempotency-store';
import { type PartnerClientOptions, type PostOptions } from './partner-client-options';
import { type PartnerResponse } from './partner-response';
import {
  type AttemptStreamEvent,
  followAttemptEvents,
  type FollowOptions,
  isTerminalStatus,
} from './sse/follow-attempt-events';
import { sendOnce } from './transport/send-once';
import { sendWithRetries, type Transport } from './transport/send-with-retries';

/**
 * The partner-side SDK of the External Intent API: signs each request (v1 or v2), persists every POST's key and
 * body before sending, and retries what is safe to retry with the same key and bytes. Answers of every status
 * are returned; only a missing answer throws (PartnerClientError).
 */
export class PartnerClient {
  private readonly base: ApiBase;
  private readonly store: IdempotencyStore;
  private readonly transport: Transport;

  constructor(options: PartnerClientOptions) {
    this.base = parseApiBase(options.baseUrl);
    this.store = options.idempotencyStore ?? new MemoryIdempotencyStore();
    this.transport = {
      credentials: { partnerId: options.partnerId, secret: options.secret, authVersion: options.authVersion },
      fetch: options.fetch ?? fetch,
      now: options.now ?? Date.now,
      sleep: options.sleep ?? ((ms) => delay(ms)),
      policy: {
        maxRetries: options.maxRetries ?? 3,
        baseDelayMs: options.retryBaseDelayMs ?? 200,
        maxDelayMs: options.retryMaxDelayMs ?? 10_000,
      },
      timeoutMs: options.requestTimeoutMs ?? 30_000,
    };
  }

  async ping(): Promise<PartnerResponse> {
    return this.get('/ping');
  }

  async quote(body: object, opts: PostOptions = {}): Promise<PartnerResponse> {
    return this.post('/intents/quote', body, opts);
  }

  /** The body is optional in the spec; without one `{}` is sent, an empty PrepareRequest. */
  async prepare(
    intentSessionId: string,
    body: object = {},
    opts: PostOptions = {},
  ): Promise<PartnerResponse> {
    return this.post(`/intents/${pathSegment(intentSessionId)}/prepare`, body, opts);
  }

  async submitted(attemptId: string, body: object, opts: PostOptions = {}): Promise<PartnerResponse> {
    return this.post(`/attempts/${pathSegment(attemptId)}/submitted`, body, opts);
  }

  async status(attemptId: string): Promise<PartnerResponse> {
    return this.get(`/attempts/${pathSegment(attemptId)}/status`);
  }

  /**
   * `POST /attempts/search`: the partner's attempts by `walletAddress` and/or `recipient`, newest first, with
   * optional `status`, `createdFrom`, `createdTo`, `limit` and `cursor` (the previous page's `nextCursor`). It only
   * reads, but like every POST it carries an Idempotency-Key.
   */
  async searchAttempts(body: object, opts: PostOptions = {}): Promise<PartnerResponse> {
    return this.post('/attempts/search', body, opts);
  }

  /** `GET /transactions/{chainId}/{txHash}/attempt`: the attempt that knows this transaction, with its snapshot. */
  async transactionAttempt(chainId: number | string, txHash: string): Promise<PartnerResponse> {
    return this.get(`/transactions/${pathSegment(String(chainId))}/${pathSegment(txHash)}/attempt`);
  }

  /**
   * `GET /webhooks/events`, or `GET /webhooks/events/after/{cursor}` with the previous page's `nextCursor`: the
   * partner's webhook events, oldest first, each with its delivery tries.
   */
  async webhookEvents(cursor?: string): Promise<PartnerResponse> {
    return this.get(
      cursor === undefined ? '/webhooks/events' : `/webhooks/events/after/${pathSegment(cursor)}`,
    );
  }

  /** `POST /webhooks/redeliver/{eventId}`: sends one event's webhook again (or now, if it awaits a retry). */
  async redeliverWebhook(eventId: string, opts: PostOptions = {}): Promise<PartnerResponse> {
    return this.post(`/webhooks/redeliver/${pathSegment(eventId)}`, {}, opts);
  }

  /**
   * `POST /webhooks/recover` with `{ from, to }` (ISO 8601): every ended event of that range is sent again, a page
   * of attempts per call. When the answer carries a `continuation`, call again with the same `from` and `to` and that
   * `continuation` for the next page (a new call: a new `operationId`, if you give one).
   */
  async recoverWebhooks(
    range: { from: string; to: string; continuation?: string },
    opts: PostOptions = {},
  ): Promise<PartnerResponse> {
    return this.post('/webhooks/recover', range, opts);
  }

  /** `GET /openapi.json` (public, not signed): the OpenAPI 3.1 document of the API this service serves. */
  async openApiDocument(): Promise<PartnerResponse> {
    return sendOnce(
      this.transport.fetch,
      `${this.base.origin}${this.base.pathPrefix}/openapi.json`,
      { method: 'GET', headers: {}, body: null },
      this.transport.timeoutMs,
    );
  }

  /**
   * The live status stream (`GET /attempts/{attemptId}/events`, Server-Sent Events) as an async iterator: each
   * lifecycle event once, in order, until the attempt ends; it reconnects with Last-Event-ID when the connection
   * drops. `lastEventId` resumes after an event seen earlier (for example by a previous process).
   *
   *     for await (const e of client.followAttemptEvents(attemptId)) console.log(e.event, e.data);
   */
  followAttemptEvents(
    attemptId: string,
    options: FollowOptions = {},
  ): AsyncGenerator<AttemptStreamEvent, void, undefined> {
    const path = apiPath(this.base, `/attempts/${pathSegment(attemptId)}/events`);
    return followAttemptEvents(
      {
        transport: this.transport,
        url: this.base.origin + path,
        path,
        hasEnded: async () => {
          const answer = await this.status(attemptId);
          return answer.status === 200 && isTerminalStatus((answer.body as { status?: unknown }).status);
        },
      },
      options,
    );
  }

  private get(endpoint: string): Promise<PartnerResponse> {
    const path = apiPath(this.base, endpoint);
    return sendWithRetries(this.transport, this.base.origin + path, {
      method: 'GET',
      path,
      body: null,
      idempotencyKey: null,
    });
  }

  private async post(endpoint: string, body: object, opts: PostOptions): Promise<PartnerResponse> {
    const operationId = opts.operationId ?? `op-${randomUUID()}`;
    const record = await this.recordFor(operationId, JSON.stringify(body), opts.idempotencyKey);
    const path = apiPath(this.base, endpoint);
    const answer = await sendWithRetries(
      this.transport,
      this.base.origin + path,
      { method: 'POST', path, body: Buffer.from(record.body, 'utf8'), idempotencyKey: record.key },
      operationId,
    );
    // An operation nobody can name again needs no record once it has a final answer (without one, the error names
    // the operation id, and a retry under it resends the same bytes). The Python and Go SDKs do the same.
    if (opts.operationId === undefined) await this.store.delete(operationId);
    return answer;
  }

  /** The stored record of an operation, or a new one persisted before anything is sent (spec, Idempotency 1). */
  private async recordFor(
    operationId: string,
    body: string,
    key: string | undefined,
  ): Promise<IdempotencyRecord> {
    const stored = await this.store.get(operationId);
    if (stored !== undefined) {
      if (stored.body !== body) throw new IdempotencyConflictError(operationId, 'body');
      if (key !== undefined && stored.key !== key) throw new IdempotencyConflictError(operationId, 'key');
      return stored;
    }
    const record = { key: key ?? randomUUID(), body };
    await this.store.put(operationId, record);
    return record;
  }
}
