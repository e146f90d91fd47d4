import { type ChainRegistry } from '@svc/chains';
import {
  type AttemptRecord,
  delayedLegs,
  depositSearchHeld,
  evolveTracking,
  flattenSlices,
  legDeadlines,
  planTracking,
  sliceSourceTx,
  type TrackingState,
  type TrackingTraits,
} from '@svc/domain';
import { type Hex } from 'viem';
import { decideAndAppend, decideAndAppendAt } from '../attempt-store/attempt-stream';
import { confirmAwaitingLegs } from './leg-finality';
import { pollProviderStep } from './poll-provider-step';
import { readSourceStep } from './read-source-step';
import { searchDeposits } from './search-deposits';
import { sliceProvider } from './slice-provider';
import { type TrackerDeps } from './tracker-deps';
import { verifyNoopStep } from './verify-noop-step';

/**
 * One run of the tracking workflow over one non-terminal attempt: the workflow (libs/domain) decides what is due,
 * this edge reads the chains and asks the providers, and every fact goes through the attempt decider (appended at the
 * revision read), so a restarted or overlapping tracker does the same run again without recording anything twice.
 * The deadlines are checked last.
 */
export async function trackAttempt(
  deps: TrackerDeps,
  record: AttemptRecord,
  tracking: TrackingState,
  now: number,
): Promise<{ record: AttemptRecord; tracking: TrackingState; revision: number | null }> {
  let current = record;
  let state = tracking;
  const flat = flattenSlices(record.prepared);
  for (const work of planTracking(record, tracking, planInput(deps, now))) {
    switch (work.kind) {
      case 'read_source':
        ({ record: current, state } = await readSourceStep(deps, current, state, { ...work, now }));
        break;
      case 'poll_provider': {
        const slice = flat.find((f) => f.slice.sliceId === work.sliceId)!;
        ({ record: current, state } = await pollProviderStep(deps, current, state, slice, { ...work, now }));
        break;
      }
      case 'verify_noop_transfer':
      case 'verify_noop_balance': {
        const slice = flat.find((f) => f.slice.sliceId === work.sliceId)!;
        const txHash = work.kind === 'verify_noop_transfer' ? work.txHash : null;
        ({ record: current, state } = await verifyNoopStep(deps, current, state, slice, {
          chainId: work.chainId,
          txHash,
          now,
        }));
        break;
      }
      case 'search_deposits': {
        // A failed search (node error, budget) backs off in the workflow; the deadlines below are checked anyway.
        try {
          const searched = await searchDeposits(deps, current, state, now);
          current = searched.record;
          state = evolveTracking(searched.state, {
            type: 'DepositSearched',
            found: searched.found,
            ambiguous: searched.ambiguous.map(({ chainId, txHash }) => ({ chainId, txHash })),
          });
        } catch {
          state = evolveTracking(state, { type: 'DepositSearchFailed', at: now });
        }
        break;
      }
    }
  }
  // Fills awaiting confirmations (issue 24 item 3): final, settled; reorganised, tracked. In the tracker they are the
  // ConfirmationWatcher's, checked when a head reaches their depth; a run on its own reads them again.
  if (deps.confirmationsWatched !== true) current = await confirmAwaitingLegs(deps, current, now);
  current = await markDelays(deps, current, now);
  const { evidenceDeadlineAt, preparedAt } = current.prepared;
  const limit = deps.policy.trackingLimitMs;
  // While a failed deposit search is still being retried, the evidence-deadline expiry waits for it (a bounded hold:
  // DEPOSIT_SEARCH_MAX_FAILURES backoffs); the tracking limit never waits.
  const held = state.depositFound || depositSearchHeld(state);
  // Each open leg is followed until its provider can no longer fill or refund it (issue 24 item 2), never less than
  // the tracking limit.
  const legs = legDeadlines(current, { ...planInput(deps, now), trackingLimitMs: limit });
  const ended = Object.values(legs).filter((until) => now >= until).length;
  const after = await decideAndAppendAt(
    deps.store,
    current.prepared.attemptId,
    `deadlines:${current.status}:${now >= evidenceDeadlineAt}:${now >= preparedAt + limit}:${held}:${ended}`,
    {
      type: 'CheckDeadlines',
      data: {
        now,
        trackingLimitMs: limit,
        depositFound: held,
        legDeadlines: legs,
        ...(state.ambiguousSources ? { ambiguousSources: state.ambiguousSources } : {}),
      },
    },
  );
  return { record: after?.record ?? current, tracking: state, revision: after?.revision ?? null };
}

/** Legs past their provider's expected fill time are marked delayed, with the provider's explorer page. */
async function markDelays(deps: TrackerDeps, record: AttemptRecord, now: number): Promise<AttemptRecord> {
  let current = record;
  for (const { sliceId, since, expectedBy } of delayedLegs(record, {
    ...planInput(deps, now),
    delayMarginMs: deps.policy.delayMarginMs,
  })) {
    const slice = flattenSlices(record.prepared).find((f) => f.slice.sliceId === sliceId)!.slice;
    const provider = sliceProvider(deps, slice);
    const sourceTxHash = (sliceSourceTx(record, sliceId)?.txHash ?? null) as Hex | null;
    const explorerUrl = provider?.adapter.explorerUrl(provider.context, sourceTxHash) ?? null;
    current =
      (await decideAndAppend(deps.store, record.prepared.attemptId, `delayed:${sliceId}`, {
        type: 'MarkLegDelayed',
        data: { sliceId, since, expectedBy, explorerUrl, now },
      })) ?? current;
  }
  return current;
}

/** What the workflow needs to know of the edge: each provider's declared traits, and which chains can be read. */
export function planInput(
  deps: { adapters: TrackerDeps['adapters']; chains: ChainRegistry },
  now: number,
): { now: number; traitsOf(provider: string): TrackingTraits | null; readable(chainId: number): boolean } {
  return {
    now,
    traitsOf: (provider) => deps.adapters[provider]?.tracking ?? null,
    readable: (chainId) => deps.chains.has(chainId),
  };
}
