import { Inject, Injectable } from '@nestjs/common';
import { authenticateRequest, sha256Hex } from '@svc/auth';
import { API_VERSION, type FieldError, HEADER } from '@svc/contract';
import {
  type BusBody,
  type BusReply,
  type BusRequest,
  BusTimeoutError,
  type FeatureRefusal,
  type FeatureReply,
  type FeatureRequest,
  MESSAGE_BUS,
  type MessageBus,
  type MessagePatternName,
  NoHandlerError,
  type PreconditionProbe,
  type ProbedPattern,
} from '@svc/messaging';
import {
  CLOCK,
  type Clock,
  type Logger,
  PARTNER_DIRECTORY,
  type PartnerConfig,
  type PartnerDirectory,
} from '@svc/platform';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import { GATEWAY_LOGGER, GATEWAY_OPTIONS, type GatewayOptions, REQUEST_RECORDS } from '../gateway.tokens';
import { ApiError } from '../http/api-error';
import { readRawBody } from '../http/read-raw-body';
import { notePartner } from '../http/request-partner';
import { IdempotencyLedger, type IdempotencyTicket } from '../idempotency/idempotency-ledger';
import { type RequestFingerprint } from '../idempotency/idempotency.events';
import { NonceRegistry } from '../nonce/nonce-registry';
import { chargePartner } from '../rate-limit/partner-rate-limit';
import { RateLimiter } from '../rate-limit/rate-limiter';
import { type RequestRecords } from '../records/request-records.port';
import { type BusRoute, type ExternalRoute, type LocalRoute, probedPatternOf } from './external-route';
import { checkTransport, parseJsonBody, requireIdempotencyKey, validationFailure } from './request-checks';

/**
 * Every API request passes these steps in this order; each step that fails answers with its own code and
 * nothing after it runs, so a rejected request changes nothing (the nonce and the idempotency key are
 * written only once every check has passed):
 *  1. body read, bounded (413)            5. rate limit (429)                9. nonce bound (409)
 *  2. transport rules (415/400)           6. nonce unused (409)              10. idempotency key recorded
 *  3. authentication (401/409)            7. Idempotency-Key present (400)       (replay / 422 / 409)
 *  4. partner enabled (403)               8. content type, JSON, validation  11. feature over the bus
 */
@Injectable()
export class ExternalRequestPipeline {
  private readonly nonces: NonceRegistry;
  private readonly ledger: IdempotencyLedger;
  private readonly limiter = new RateLimiter();

  constructor(
    @Inject(REQUEST_RECORDS) records: RequestRecords,
    @Inject(PARTNER_DIRECTORY) private readonly partners: PartnerDirectory,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(GATEWAY_OPTIONS) private readonly options: GatewayOptions,
    @Inject(GATEWAY_LOGGER) private readonly logger: Logger,
  ) {
    this.nonces = new NonceRegistry(records.nonces);
    this.ledger = new IdempotencyLedger(records.idempotency, {
      leaseMs: options.idempotencyLeaseSeconds * 1000,
    });
  }

  /** An endpoint a feature answers: every step above. */
  async handle<P extends MessagePatternName>(
    req: FastifyRequest,
    res: FastifyReply,
    route: BusRoute<P>,
    resourceId: string | null,
  ): Promise<void> {
    const admitted = await this.admit(req, route);
    const { partner, requestId, now, idempotencyKey } = admitted;
    const result = route.validate(admitted.json, {
      maxFeeBps: partner.maxFeeBps,
      callbackUrl: partner.callbackUrl,
    });
    if (!result.ok) {
      const probed = probedPatternOf(route);
      if (probed) await this.resourceChecksBefore(route.name, probed, admitted, resourceId, result.errors);
      throw validationFailure(result.errors);
    }
    await this.accept(admitted, route, resourceId);

    const request: FeatureRequest<BusBody<P>> = {
      partnerId: partner.partnerId,
      requestId,
      idempotencyKey,
      resourceId,
      replayOf: null,
      body: result.value,
      receivedAt: now,
    };
    if (idempotencyKey === null || route.readOnly) {
      this.send(res, await this.call(route, request));
      return;
    }
    await this.runIdempotent(res, route, request, partner, idempotencyKey, {
      method: route.method,
      path: admitted.path,
      bodySha256: sha256Hex(admitted.rawBody),
    });
  }

  /** An endpoint the gateway answers itself (ping): the same checks, no body, no feature. */
  async answerLocally(req: FastifyRequest, res: FastifyReply, route: LocalRoute): Promise<void> {
    const admitted = await this.admit(req, route);
    await this.accept(admitted, route, null);
    void res.status(200).send({ apiVersion: API_VERSION, ok: true, partnerId: admitted.partner.partnerId });
  }

  /**
   * An endpoint the gateway serves itself over a long-lived response (the live status stream): the same checks as
   * any GET, the nonce spent; the caller answers. Who is asking.
   */
  async admitLocally(
    req: FastifyRequest,
    route: LocalRoute,
    resourceId: string | null,
  ): Promise<{ partnerId: string; requestId: string }> {
    const admitted = await this.admit(req, route);
    await this.accept(admitted, route, resourceId);
    return { partnerId: admitted.partner.partnerId, requestId: admitted.requestId };
  }

  /** Steps 1–7 and the body's parse: who is asking, within which limits, and what they sent. */
  private async admit(req: FastifyRequest, route: RouteNaming): Promise<Admitted> {
    const now = this.clock.now();
    // The edge names every request (X-Request-Id) and hands a POST body over as raw bytes; a GET's is read here.
    const requestId = req.id;
    const rawBody = Buffer.isBuffer(req.body)
      ? req.body
      : await readRawBody(req.raw, this.options.maxBodyBytes);
    checkTransport(req.method, req.headers, rawBody);

    const auth = authenticateRequest(
      { method: req.method, rawUrl: req.url, rawHeaders: req.raw.rawHeaders, body: rawBody },
      (id) => this.partners.get(id),
      now,
    );
    if (!auth.ok) throw new ApiError(auth.code, auth.message);
    const partner = this.partners.get(auth.partnerId)!;
    if (auth.secret === 'previous')
      // The operator's signal during a rotation: once no such line appears, the previous secret can be retired.
      this.logger.info(
        { requestId, partnerId: partner.partnerId },
        'request verified with the previous secret',
      );
    notePartner(req, partner.partnerId);
    if (!partner.enabled) throw new ApiError('partner_disabled', 'this partner is disabled');
    // The body is parsed once, here: its weight is charged before anything else about it is refused.
    const parsed = route.method === 'POST' ? parseOrRefusal(req.headers, rawBody) : { json: undefined };
    chargePartner(this.limiter, req, partner, route.name, parsed.json, now);
    const nonce =
      auth.nonce && auth.requestTupleHash ? { value: auth.nonce, tuple: auth.requestTupleHash } : null;
    if (nonce && !(await this.nonces.isAvailable(partner.partnerId, nonce.value, nonce.tuple)))
      throw nonceConflict();

    const idempotencyKey = route.method === 'POST' ? requireIdempotencyKey(req.headers) : null;
    if (parsed.refusal) throw parsed.refusal;
    return { now, requestId, rawBody, path: auth.path, partner, nonce, idempotencyKey, json: parsed.json };
  }

  /** Step 9, once every check passed: the nonce is spent only by a request that is going to run. */
  private async accept(admitted: Admitted, route: RouteNaming, resourceId: string | null): Promise<void> {
    const { partner, nonce, requestId, now } = admitted;
    if (nonce && !(await this.nonces.bind(partner.partnerId, nonce.value, nonce.tuple, now)))
      throw nonceConflict();
    this.logger.info(
      { requestId, partnerId: partner.partnerId, route: route.name, resourceId },
      'request accepted',
    );
  }

  /** Lets the feature answer its own precondition errors first; it must not answer ok to a rejected body. */
  private async resourceChecksBefore(
    name: string,
    pattern: ProbedPattern,
    { partner, requestId, now }: Admitted,
    resourceId: string | null,
    errors: FieldError[],
  ): Promise<void> {
    // Property order is the wire format's: a probe is the request with `rejectedBody` added before receivedAt.
    const probe: PreconditionProbe = {
      partnerId: partner.partnerId,
      requestId,
      idempotencyKey: null,
      resourceId,
      replayOf: null,
      body: null,
      rejectedBody: errors,
      receivedAt: now,
    };
    const reply = await this.call({ name, pattern }, probe);
    if (!reply.ok) throw replyError(reply);
  }

  private async runIdempotent<P extends MessagePatternName>(
    res: FastifyReply,
    route: BusRoute<P>,
    request: FeatureRequest<BusBody<P>>,
    partner: PartnerConfig,
    key: string,
    fingerprint: RequestFingerprint,
  ): Promise<void> {
    const begun = await this.ledger.begin(partner.partnerId, key, fingerprint, request.receivedAt);
    switch (begun.kind) {
      case 'reused':
        throw new ApiError(
          'idempotency_key_reused',
          'this Idempotency-Key was already used with a different body or endpoint',
        );
      case 'in_progress':
        throw new ApiError(
          'idempotency_request_in_progress',
          'a request with this Idempotency-Key is still running',
          {
            retryAfterSeconds: begun.retryAfterSeconds,
          },
        );
      case 'replay':
        this.send(res, await this.call(route, { ...request, replayOf: begun.resource }));
        return;
      case 'run':
        this.send(res, await this.runOnce(route, request, begun.ticket));
        return;
    }
  }

  /** Runs the feature once and settles the key: completed with its resource, or released when nothing was made. */
  private async runOnce<P extends MessagePatternName>(
    route: BusRoute<P>,
    request: FeatureRequest<BusBody<P>>,
    ticket: IdempotencyTicket,
  ): Promise<BusReply<P>> {
    let reply: BusReply<P>;
    try {
      reply = await this.call(route, request);
    } catch (err) {
      // Ran nowhere: the key is free to run again. On a timeout the feature may still finish, so the key
      // stays in progress until its lease ends and a retry cannot run the operation twice meanwhile.
      if (
        err instanceof ApiError &&
        err.code === 'dependency_unavailable' &&
        err.cause instanceof NoHandlerError
      ) {
        await this.ledger.release(ticket, err.status, err.code, this.clock.now());
      }
      throw err;
    }
    if (reply.ok && reply.resource) await this.ledger.complete(ticket, reply.resource, 200, this.clock.now());
    else if (!reply.ok)
      await this.ledger.release(
        ticket,
        new ApiError(reply.code, reply.message).status,
        reply.code,
        this.clock.now(),
      );
    return reply;
  }

  private async call<P extends MessagePatternName>(
    route: { name: string; pattern: P },
    request: BusRequest<P>,
  ): Promise<BusReply<P>> {
    try {
      return await this.bus.request(route.pattern, request, {
        timeoutMs: this.options.busRequestTimeoutMs,
      });
    } catch (err) {
      if (err instanceof BusTimeoutError || err instanceof NoHandlerError) {
        throw new ApiError(
          'dependency_unavailable',
          `the ${route.name} service did not answer; retry with the same Idempotency-Key`,
          {
            retryAfterSeconds: 2,
          },
          err,
        );
      }
      throw err;
    }
  }

  private send(res: FastifyReply, reply: FeatureReply): void {
    if (!reply.ok) throw replyError(reply);
    void res
      .status(200)
      .header(HEADER.apiVersion, API_VERSION)
      .send({ ...(reply.body as object), apiVersion: API_VERSION });
  }
}

/** What every step reads of the route, whoever answers it. */
type RouteNaming = Pick<ExternalRoute, 'name' | 'method'>;

/** What steps 1–7 established about a request. */
interface Admitted {
  now: number;
  requestId: string;
  rawBody: Buffer;
  /** The request path as signed. */
  path: string;
  partner: PartnerConfig;
  nonce: { value: string; tuple: string } | null;
  idempotencyKey: string | null;
  /** The parsed body; undefined for a GET or an empty body. */
  json: unknown;
}

function replyError(reply: FeatureRefusal): ApiError {
  return new ApiError(reply.code, reply.message, {
    ...(reply.details ? { details: reply.details } : {}),
    ...(reply.retryAfterSeconds !== undefined ? { retryAfterSeconds: reply.retryAfterSeconds } : {}),
  });
}

function nonceConflict(): ApiError {
  return new ApiError('external_auth_nonce_conflict', 'this nonce was already used for a different request');
}

/** The parsed body, or the refusal of it (thrown only after the rate limit, the nonce and the key are checked). */
function parseOrRefusal(
  headers: FastifyRequest['headers'],
  rawBody: Buffer,
): { json: unknown; refusal?: ApiError } {
  try {
    return { json: parseJsonBody(headers, rawBody) };
  } catch (error) {
    if (error instanceof ApiError) return { json: undefined, refusal: error };
    throw error;
  }
}
