import { type ChainRegistry } from '@svc/chains';
import { type EventStore, type QuarantinedEvent, type RecordedEvent } from '@svc/event-store';
import { type ProviderAdapter } from '@svc/providers';
import { verifyOnChain, type ChainVerification } from '../chain/verify-on-chain';
import { type AttemptHistory, readAttemptHistory } from '../history/attempt-history';
import { checkSnapshot, type SnapshotCheck } from '../snapshot/check-snapshot';
import { type Difference, jsonDifferences } from '../snapshot/json-differences';
import { type LiveStatus, readLiveStatus } from '../snapshot/live-status';

export interface AttemptAudit {
  history: AttemptHistory;
  status: SnapshotCheck;
  /** The partner's signed GET on a running service (--api), held to the folded snapshot. */
  live: (LiveStatus & { differences: Difference[] }) | null;
  /** --verify-chain only. */
  chain: ChainVerification | null;
}

/** An attempt whose own stream holds an event the service refuses: its events, and that event (the finding). */
export interface RefusedAttemptAudit {
  attemptId: string;
  events: RecordedEvent[];
  refused: QuarantinedEvent;
}

export interface AuditSources {
  store: EventStore;
  requestsFile: string | null;
  chains: ChainRegistry;
  /** The providers' adapters, for their fill-record readers (the chain check attributes fills as the tracker does). */
  adapters: Readonly<Record<string, ProviderAdapter>>;
  env: Record<string, string | undefined>;
}

/**
 * The whole audit of one attempt; null when the store has no such attempt; refused when the attempt's stream holds an
 * event its decider does not fold (the service refuses the attempt as well: nothing more can be checked).
 */
export async function auditAttempt(
  sources: AuditSources,
  attemptId: string,
  options: { verifyChain: boolean; api: string | null },
): Promise<AttemptAudit | RefusedAttemptAudit | null> {
  const history = await readAttemptHistory(sources, attemptId);
  if (history === null) return null;
  if ('refused' in history) return { attemptId, events: history.events, refused: history.refused };
  const status = await checkSnapshot(sources.store, sources.chains, history.record);
  let live: AttemptAudit['live'] = null;
  if (options.api !== null) {
    const answer = await readLiveStatus(
      options.api,
      history.record.prepared.partnerId,
      attemptId,
      sources.env,
    );
    live = { ...answer, differences: jsonDifferences(status.snapshot, answer.body) };
  }
  const chain = options.verifyChain ? await verifyOnChain(sources, history) : null;
  return { history, status, live, chain };
}

/** How many things disagree: malformed stored events, snapshot differences (store and live) and chain mismatches. */
export function findingsOf(audit: Pick<AttemptAudit, 'history' | 'status' | 'live' | 'chain'>): number {
  return (
    audit.history.storedEvents.malformed.length +
    audit.status.differences.length +
    (audit.live?.differences.length ?? 0) +
    (audit.chain?.mismatches.length ?? 0)
  );
}

/** Transactions whose chain could not be read now (not in CHAINS_FILE, or the node did not answer). */
export function unreachableOf(audit: Pick<AttemptAudit, 'chain'>): number {
  return audit.chain?.checks.filter((c) => c.outcome === 'unreachable').length ?? 0;
}
