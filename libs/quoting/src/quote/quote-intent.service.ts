import { Inject, Injectable } from '@nestjs/common';
import {
  allocate,
  currentQuoteStatus,
  decideQuote,
  evaluateLeg,
  type IntentQuotedData,
  intentSessionDecider,
  intentSessionStreamId,
} from '@svc/domain';
import { aggregateStream, EVENT_STORE, type EventStore, handleCommand } from '@svc/event-store';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { PARTNER_DIRECTORY, type PartnerDirectory } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import { PROVIDER_ORDER, QUOTING_OPTIONS, type QuotingOptions } from '../quoting.options';
import { consideredProviders } from './considered-providers';
import { FairLimiter } from './fair-limiter';
import { gatherQuotes } from './gather-quotes';
import { intentSessionIdFor } from './intent-session-id';
import { type QuoteIntent } from './quote-intent.command';
import { sessionExecution, sessionExpiry, sessionFees } from './session-execution';
import { toAllocationInput } from './to-allocation-input';
import { toQuoteResponse } from './to-quote-response';
import { toQuoteSlices } from './to-quote-slices';

type QuoteReply = BusReply<typeof MessagePattern.quote>;

/** `quoting.quote`: allocate, ask every allowed provider under one deadline, select, record the intent session. */
@Injectable()
export class QuoteIntentService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(PROVIDER_ADAPTERS) private readonly adapters: Record<RoutableProvider, ProviderAdapter>,
    @Inject(PARTNER_DIRECTORY) private readonly partners: PartnerDirectory,
    @Inject(QUOTING_OPTIONS) private readonly options: QuotingOptions,
  ) {
    this.limiters = Object.fromEntries(
      Object.keys(adapters).map((p) => [p, new FairLimiter(options.providerConcurrency)]),
    ) as Record<RoutableProvider, FairLimiter>;
  }

  /** One per provider, shared by every quote this instance runs. */
  private readonly limiters: Record<RoutableProvider, FairLimiter>;

  async quote(command: QuoteIntent): Promise<QuoteReply> {
    const intentSessionId = command.replayOf ?? intentSessionIdFor(command.partnerId, command.idempotencyKey);
    const existing = await this.load(intentSessionId, command.partnerId);
    if (existing) return this.reply(existing, command.now);
    if (command.replayOf)
      return {
        ok: false,
        code: 'intent_session_not_found',
        message: 'the quote this key created no longer exists',
      };

    const quote = await this.route(intentSessionId, command);
    // Recorded once: an overlapping run of this very quote (same key) records nothing of its own.
    await handleCommand(
      this.store,
      intentSessionStreamId(intentSessionId),
      intentSessionDecider,
      { type: 'RecordQuote', data: { quote } },
      { stepId: 'quote', once: true },
    );
    // An overlapping run of this very quote (same key) may have appended first, and the store then acknowledges
    // ours as a retry of it by event id: the plan routed here may not be the one stored. Only the stored session
    // is answered, because prepare builds from it.
    const stored = await this.load(intentSessionId, command.partnerId);
    if (!stored)
      throw new Error(`intent session ${intentSessionId}: not found right after its IntentQuoted append`);
    return this.reply(stored, command.now);
  }

  private async route(intentSessionId: string, command: QuoteIntent): Promise<IntentQuotedData> {
    const { body, now } = command;
    const partner = this.partners.get(command.partnerId);
    const providers = consideredProviders(body.allowedProviders, partner?.allowedProviders ?? []);
    const allocation = allocate(toAllocationInput(body));
    const fee = {
      bps: this.options.serviceFeeBps + (body.feeBps ?? 0),
      recipient: this.options.serviceFeeRecipient,
    };
    const gathered = await gatherQuotes(
      toQuoteSlices(body, allocation, providers, fee),
      this.adapters,
      body.maxWaitMs ?? this.options.defaultMaxWaitMs,
      { requestId: intentSessionId, limiters: this.limiters },
    );
    const legs = allocation.legs.map((leg) => evaluateLeg(leg, providers, gathered.quotes));
    const decision = decideQuote(legs, body.allowPartial, PROVIDER_ORDER);
    const expiresAt = sessionExpiry(now, this.options.quoteTtlSeconds, decision, gathered);
    const targets = body.target ? [body.target] : body.targets;
    return {
      intentSessionId,
      partnerId: command.partnerId,
      idempotencyKey: command.idempotencyKey,
      quotedAt: now,
      expiresAt,
      request: body,
      response: toQuoteResponse({
        intentSessionId,
        expiresAt,
        allocation,
        decision,
        priceUsd: (id) => targets.find((t) => t.id === id)?.targetToken.priceUSD ?? null,
      }),
      execution: sessionExecution(decision, gathered),
      fees: sessionFees(
        decision,
        {
          serviceFeeBps: this.options.serviceFeeBps,
          markupBps: body.feeBps ?? 0,
          recipient: this.options.serviceFeeRecipient,
        },
        gathered,
      ),
    };
  }

  /** The stored session, if it exists and belongs to this partner (another partner's is "not found"). */
  private async load(intentSessionId: string, partnerId: string): Promise<IntentQuotedData | null> {
    const { state } = await aggregateStream(
      this.store,
      intentSessionStreamId(intentSessionId),
      intentSessionDecider,
    );
    return state.status !== 'none' && state.quote.partnerId === partnerId ? state.quote : null;
  }

  private reply(quote: IntentQuotedData, now: number): QuoteReply {
    return {
      ok: true,
      body: { ...quote.response, quoteStatus: currentQuoteStatus(quote, now) },
      resource: { kind: 'intent_session', id: quote.intentSessionId },
    };
  }
}
