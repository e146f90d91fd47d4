import { Inject, Injectable } from '@nestjs/common';
import { type PrepareRequest, type PrepareResponse } from '@svc/contract';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import {
  type AttemptEvent,
  type AttemptPreparedData,
  type AttemptState,
  attemptDecider,
  attemptStreamId,
  type ClaimForAttempt,
  intentSessionDecider,
  IntentSessionRefusedError,
  type IntentSessionState,
  intentSessionStreamId,
} from '@svc/domain';
import {
  aggregateStream,
  EVENT_STORE,
  eventIdFrom,
  type EventStore,
  handleCommand,
  WrongExpectedVersionError,
} from '@svc/event-store';
import { type FeatureReply, type FeatureRequest } from '@svc/messaging';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { EXECUTION_OPTIONS, type ExecutionOptions } from '../execution.options';
import { attemptIdFor } from './attempt-id';
import { buildAttempt } from './build-attempt';
import { requoteStaleSlices } from './requote-stale-slices';

/**
 * `execution.prepare`: turns a ready intent session into an attempt, the chain actions the wallet executes and the
 * authorization it signs. A session has at most one attempt: the session's IntentPrepared is appended at the
 * revision read, so of two concurrent prepares only one can win.
 */
@Injectable()
export class PrepareAttemptService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Record<RoutableProvider, ProviderAdapter>,
    @Inject(EXECUTION_OPTIONS) private readonly options: ExecutionOptions,
  ) {}

  async prepare(request: FeatureRequest<PrepareRequest | null>): Promise<FeatureReply> {
    const intentSessionId = request.resourceId ?? '';
    const attemptId =
      request.replayOf?.id ?? attemptIdFor(request.partnerId, intentSessionId, request.idempotencyKey);
    const existing = await this.loadAttempt(attemptId, request.partnerId);
    if (existing) return reply(existing);
    if (request.replayOf)
      return {
        ok: false,
        code: 'attempt_not_found',
        message: 'the attempt this key created no longer exists',
      };

    const state = await this.loadSession(intentSessionId);
    const claim: ClaimForAttempt = {
      type: 'ClaimForAttempt',
      data: {
        partnerId: request.partnerId,
        attemptId,
        idempotencyKey: request.idempotencyKey,
        now: request.receivedAt,
      },
    };
    // The session's own rules, checked before anything is built: the order partners see (404, 409 expired, …).
    const refused = await refusal(() => intentSessionDecider.decide(claim, state));
    if (refused) return { ok: false, ...refused };
    if (request.rejectedBody?.length) {
      const [first] = request.rejectedBody;
      return {
        ok: false,
        code: first.code,
        message: request.rejectedBody.map((e) => `${e.field}: ${e.message}`).join('; '),
        details: request.rejectedBody,
      };
    }
    if (state.status === 'none' || !request.body)
      return { ok: false, code: 'intent_session_not_found', message: 'no intent session with this id' };

    const fresh = await requoteStaleSlices(
      state.quote.execution,
      this.adapters,
      {
        quotedAt: state.quote.quotedAt,
        now: request.receivedAt,
        maxAgeMs: this.options.quoteFreshnessSeconds * 1000,
      },
      5_000,
    );
    if (!fresh.ok) return { ok: false, code: 'quote_changed', message: fresh.message };
    const prepared = await buildAttempt({
      attemptId,
      quote: state.quote,
      legs: fresh.legs,
      request,
      options: this.options,
      chains: this.chains,
    });

    if (state.status === 'quoted') {
      // Claimed at the revision the seam reads: another prepare that got there first makes this one refused.
      const lost = await refusal(() =>
        handleCommand(this.store, intentSessionStreamId(intentSessionId), intentSessionDecider, claim, {
          stepId: `claim:${attemptId}`,
          once: true,
        }),
      );
      if (lost) return { ok: false, ...lost };
    }
    const event: AttemptEvent = { type: 'AttemptPrepared', data: prepared };
    try {
      await this.store.append(
        attemptStreamId(attemptId),
        [
          {
            id: eventIdFrom(attemptStreamId(attemptId), event.type),
            type: event.type,
            data: { ...event.data },
          },
        ],
        { expectedRevision: 'no_stream' },
      );
    } catch (err) {
      if (!(err instanceof WrongExpectedVersionError)) throw err;
    }
    // An overlapping run of this very prepare (same key) may have appended first, and the store then acknowledges
    // ours as a retry of it by event id: what was built here may not be what was stored. Only the stored attempt
    // is handed out, because its calls and nonce are what `submitted` and the tracker check against.
    const stored = await this.loadAttempt(attemptId, request.partnerId);
    if (!stored) throw new Error(`attempt ${attemptId}: not found right after its AttemptPrepared append`);
    return reply(stored);
  }

  private async loadSession(intentSessionId: string): Promise<IntentSessionState> {
    if (!intentSessionId) return intentSessionDecider.initialState;
    return (await aggregateStream(this.store, intentSessionStreamId(intentSessionId), intentSessionDecider))
      .state;
  }

  private async loadAttempt(
    attemptId: string,
    partnerId: string,
  ): Promise<Exclude<AttemptState, { status: 'none' }> | null> {
    const { state } = await aggregateStream(this.store, attemptStreamId(attemptId), attemptDecider);
    return state.status !== 'none' && state.prepared.partnerId === partnerId ? state : null;
  }
}

function reply(attempt: { status: PrepareResponse['status']; prepared: AttemptPreparedData }): FeatureReply {
  const p = attempt.prepared;
  const body: Omit<PrepareResponse, 'apiVersion'> = {
    attemptId: p.attemptId,
    intentSessionId: p.intentSessionId,
    status: attempt.status,
    expiresAt: new Date(p.expiresAt).toISOString(),
    evidenceDeadlineAt: new Date(p.evidenceDeadlineAt).toISOString(),
    chainActions: p.chainActions,
    walletAuthorization: p.walletAuthorization,
  };
  return { ok: true, body, resource: { kind: 'attempt', id: p.attemptId } };
}

/** The intent session's refusal of a command (decided alone, or run through the seam), as a reply; null if accepted. */
async function refusal(
  run: () => unknown,
): Promise<{ code: IntentSessionRefusedError['code']; message: string } | null> {
  try {
    await run();
    return null;
  } catch (err) {
    if (err instanceof IntentSessionRefusedError) return { code: err.code, message: err.message };
    throw err;
  }
}
