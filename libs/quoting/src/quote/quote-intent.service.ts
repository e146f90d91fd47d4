import { Inject, Injectable, Optional } from '@nestjs/common';
import { type FailedSource, type SourceGasEstimate, type SourceGasReport } from '@svc/contract';
import {
  allocate,
  replayedQuoteResponse,
  decideQuote,
  evaluateLeg,
  type IntentQuotedData,
  intentSessionDecider,
  intentSessionStreamId,
  type SourceGasEstimator,
  sourceGasReport,
  type SourceGasSession,
  uneconomicSourceIndexes,
  withBudget,
} from '@svc/domain';
import { aggregateStream, EVENT_STORE, type EventStore, handleCommand } from '@svc/event-store';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { PARTNER_DIRECTORY, type PartnerDirectory } from '@svc/platform';
import { PROVIDER_ADAPTERS, type ProviderAdapter, type RoutableProvider } from '@svc/providers';
import {
  PROVIDER_ORDER,
  QUOTING_OPTIONS,
  type QuotingOptions,
  SOURCE_GAS_ESTIMATOR,
} from '../quoting.options';
import { consideredProviders } from './considered-providers';
import { FairLimiter } from './fair-limiter';
import { type GatheredQuotes, gatherQuotes } from './gather-quotes';
import { intentSessionIdFor } from './intent-session-id';
import { type QuoteIntent } from './quote-intent.command';
import { sessionExecution, sessionExpiry, sessionFees } from './session-execution';
import {
  excludedSources,
  providerSourceValues,
  SOURCE_GAS_BUDGET_MS,
  speculateOnAnswers,
  unavailableFigures,
} from './source-gas';
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
    @Optional() @Inject(SOURCE_GAS_ESTIMATOR) private readonly gas?: SourceGasEstimator,
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
    const allSources = body.sources.map((_, index) => index);
    // One estimator session per quote: the chains are read for the plan the answers so far would route while the
    // last providers are awaited, and those reads serve the final plan when it holds the same calls.
    const gas = this.gas?.session?.() ?? this.gas;
    let plan = await this.plan(intentSessionId, command, providers, allSources, gas);
    let sourceGas = await this.sourceGas(body, plan, [], gas);
    let excluded: FailedSource[] = [];
    // excludeUneconomicSources: the flagged sources are left out and the quote is routed again without them, so
    // allocation and coverage are computed on what remains (docs/source-economics.md).
    const uneconomic = body.excludeUneconomicSources && sourceGas ? uneconomicSourceIndexes(sourceGas) : [];
    if (uneconomic.length > 0) {
      const left = sourceGas!.sources.filter((s) => uneconomic.includes(s.inputTokenIndex));
      excluded = excludedSources(plan.allocation, left, sourceGas!.thresholdBps);
      // The sources that remain are allocated as before, so their slices are the same questions: the first pass's
      // answers serve them, and no provider is asked twice (only a slice that changed is asked again).
      plan = await this.plan(
        intentSessionId,
        command,
        providers,
        allSources.filter((i) => !uneconomic.includes(i)),
        gas,
        plan.gathered,
      );
      sourceGas = await this.sourceGas(body, plan, left, gas);
    }
    const { allocation, decision, gathered } = plan;
    const expiresAt = sessionExpiry(now, this.options.quoteTtlSeconds, decision, gathered);
    const targets = body.target ? [body.target] : body.targets;
    const response = toQuoteResponse({
      intentSessionId,
      expiresAt,
      allocation,
      decision,
      priceUsd: (id) => targets.find((t) => t.id === id)?.targetToken.priceUSD ?? null,
    });
    return {
      intentSessionId,
      partnerId: command.partnerId,
      idempotencyKey: command.idempotencyKey,
      quotedAt: now,
      expiresAt,
      request: body,
      response: {
        ...response,
        failedSources: [...response.failedSources, ...excluded],
        ...(sourceGas ? { sourceGas } : {}),
      },
      execution: plan.execution,
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

  /** Allocates the given sources (by request index), asks every considered provider, selects the routes. */
  private async plan(
    intentSessionId: string,
    command: QuoteIntent,
    providers: ReturnType<typeof consideredProviders>,
    sourceIndexes: readonly number[],
    gas?: Pick<SourceGasSession, 'estimate'> & Partial<Pick<SourceGasSession, 'speculate'>>,
    /** The same quote's first pass: what was asked then with the same slice is not asked again. */
    earlier?: GatheredQuotes,
  ) {
    const { body, now } = command;
    const input = toAllocationInput(body);
    const allocation = allocate({
      ...input,
      sources: input.sources.filter((s) => sourceIndexes.includes(s.index)),
    });
    const fee = {
      bps: this.options.serviceFeeBps + (body.feeBps ?? 0),
      recipient: this.options.serviceFeeRecipient,
    };
    const route = (answers: GatheredQuotes) => {
      const legs = allocation.legs.map((leg) => evaluateLeg(leg, providers, answers.quotes));
      const decision = decideQuote(legs, body.allowPartial, PROVIDER_ORDER);
      return { decision, execution: sessionExecution(decision, answers) };
    };
    const speculate = gas?.speculate?.bind(gas);
    const provisional = speculate
      ? speculateOnAnswers((answers) => speculate({ request: body, legs: route(answers).execution }))
      : undefined;
    const gathered = await gatherQuotes(
      toQuoteSlices(body, allocation, providers, fee),
      this.adapters,
      body.maxWaitMs ?? this.options.defaultMaxWaitMs,
      { requestId: intentSessionId, limiters: this.limiters },
      { now, minimumMs: this.options.minimumProviderQuoteSeconds * 1000 },
      provisional?.onAnswer,
      earlier,
    );
    provisional?.stop();
    return { allocation, gathered, ...route(gathered) };
  }

  /**
   * The routed sources' gas, priced (docs/source-economics.md); undefined without an estimator. A chain that does not
   * answer within the estimator's budget leaves its own sources `unavailable`; SOURCE_GAS_BUDGET_MS bounds the whole,
   * so the quote is never late for it.
   */
  private async sourceGas(
    body: QuoteIntent['body'],
    plan: Awaited<ReturnType<QuoteIntentService['plan']>>,
    excluded: SourceGasEstimate[],
    gas: Pick<SourceGasSession, 'estimate'> | undefined,
  ): Promise<SourceGasReport | undefined> {
    if (!this.gas || !gas) return undefined;
    const estimator = this.gas;
    const figures = await withBudget(
      gas.estimate({ request: body, legs: plan.execution }),
      SOURCE_GAS_BUDGET_MS,
    ).catch((error: unknown) => unavailableFigures(plan.execution, body, estimator, error));
    const chainIds = [
      ...body.sources.map((s) => s.chainId),
      ...(body.target ? [body.target] : body.targets).map((t) => t.chainId),
    ];
    const nativeSymbols = new Map<number, string>();
    for (const chainId of chainIds) {
      const symbol = estimator.nativeSymbol(chainId);
      if (symbol !== null) nativeSymbols.set(chainId, symbol);
    }
    return sourceGasReport({
      figures,
      request: body,
      providerValues: providerSourceValues(plan.decision, plan.gathered),
      nativeSymbols,
      excluded,
    });
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
      body: replayedQuoteResponse(quote, now),
      resource: { kind: 'intent_session', id: quote.intentSessionId },
    };
  }
}
