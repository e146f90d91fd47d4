import { Inject, Injectable } from '@nestjs/common';
import { attemptIdFor, type PrepareResponse } from '@svc/contract';
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
  providerDeadlineFloor,
  walletAttemptsStreamId,
} from '@svc/domain';
import {
  aggregateStream,
  EVENT_STORE,
  eventIdFrom,
  type EventStore,
  handleCommand,
  WrongExpectedVersionError,
} from '@svc/event-store';
import { type BusReply, type FeatureRefusal, type MessagePattern } from '@svc/messaging';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { EXECUTION_OPTIONS, type ExecutionOptions } from '../execution.options';
import { buildAttempt } from './build-attempt';
import { type CheckPreconditions } from './check-preconditions.command';
import { type PrepareAttempt } from './prepare-attempt.command';
import { requoteStaleSlices } from './requote-stale-slices';

type PrepareReply = BusReply<typeof MessagePattern.prepare>;

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

  async prepare(command: PrepareAttempt): Promise<PrepareReply> {
    const { partnerId, intentSessionId, now } = command;
    const attemptId = command.replayOf ?? attemptIdFor(partnerId, intentSessionId, command.idempotencyKey);
    const existing = await this.loadAttempt(attemptId, partnerId);
    if (existing) return reply(existing);
    if (command.replayOf)
      return {
        ok: false,
        code: 'attempt_not_found',
        message: 'the attempt this key created no longer exists',
      };

    const state = await this.loadSession(intentSessionId);
    const claim = claimFor(partnerId, attemptId, command.idempotencyKey, now);
    // The session's own rules, checked before anything is built: the order partners see (404, 409 expired, …).
    const refused = await refusal(() => intentSessionDecider.decide(claim, state));
    if (refused) return { ok: false, ...refused };
    if (state.status === 'none')
      return { ok: false, code: 'intent_session_not_found', message: 'no intent session with this id' };

    const fresh = await requoteStaleSlices(
      state.quote.execution,
      this.adapters,
      {
        quotedAt: state.quote.quotedAt,
        now,
        maxAgeMs: this.options.quoteFreshnessSeconds * 1000,
        deadlineFloor: providerDeadlineFloor(now, this.options),
      },
      5_000,
    );
    if (!fresh.ok) return { ok: false, code: 'quote_changed', message: fresh.message };
    const prepared = await buildAttempt({
      attemptId,
      quote: state.quote,
      legs: fresh.legs,
      command,
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
    // The wallet's attempts, before the attempt's own stream: an attempt that exists is always seen by the deposit
    // searches of this wallet's other attempts, which claim no transaction it could own too (ADR 0009, N-M6).
    const walletStream = walletAttemptsStreamId(prepared.wallet);
    await this.store.append(
      walletStream,
      [
        {
          id: eventIdFrom(walletStream, attemptId),
          type: 'WalletAttemptRegistered',
          data: { attemptId, preparedAt: prepared.preparedAt },
        },
      ],
      { expectedRevision: 'any' },
    );
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
    const stored = await this.loadAttempt(attemptId, partnerId);
    if (!stored) throw new Error(`attempt ${attemptId}: not found right after its AttemptPrepared append`);
    return reply(stored);
  }

  /** The session's refusal of a prepare, else the body's errors: reads the session, records nothing. */
  async checkPreconditions(command: CheckPreconditions): Promise<FeatureRefusal> {
    const { partnerId, intentSessionId, now, bodyErrors } = command;
    const state = await this.loadSession(intentSessionId);
    // A check claims for no attempt of its own: a fresh id (no key), so a session already prepared is refused
    // as it would be for any other key.
    const claim = claimFor(partnerId, attemptIdFor(partnerId, intentSessionId, null), null, now);
    const refused = await refusal(() => intentSessionDecider.decide(claim, state));
    if (refused) return { ok: false, ...refused };
    const [first] = bodyErrors;
    return {
      ok: false,
      code: first?.code ?? 'invalid_request_body',
      message: bodyErrors.map((e) => `${e.field}: ${e.message}`).join('; '),
      details: bodyErrors,
    };
  }

  private async loadSession(intentSessionId: string): Promise<IntentSessionState> {
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

function claimFor(
  partnerId: string,
  attemptId: string,
  idempotencyKey: string | null,
  now: number,
): ClaimForAttempt {
  return { type: 'ClaimForAttempt', data: { partnerId, attemptId, idempotencyKey, now } };
}

function reply(attempt: { status: PrepareResponse['status']; prepared: AttemptPreparedData }): PrepareReply {
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
