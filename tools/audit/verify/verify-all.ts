import { isTerminalAttemptStatus, isTerminalLegStatus } from '@svc/contract';
import { type AttemptRecord, attemptIdOfStream } from '@svc/domain';
import { type QuarantinedEvent } from '@svc/event-store';
import { type ChainMismatch } from '../chain/chain-check';
import { verifyOnChain } from '../chain/verify-on-chain';
import { readAttempt } from '../history/read-attempt';
import { readClaims } from '../history/read-claims';
import { type AuditSources } from '../report/audit-attempt';
import { checkSnapshot } from '../snapshot/check-snapshot';
import { type Difference } from '../snapshot/json-differences';
import { forEachPreparedAttempt } from './each-prepared-attempt';

export type Finding =
  | { kind: 'status'; attemptId: string; difference: Difference }
  | { kind: 'chain'; attemptId: string; mismatch: ChainMismatch }
  /** A stored event the service refuses (its decider does not fold it): the attempt, or its claim, is not checked. */
  | { kind: 'malformed'; attemptId: string; event: QuarantinedEvent };

export interface VerifyOptions {
  since: number | null;
  partnerId: string | null;
  /** Skip reading the chains: the snapshot check alone. */
  storeOnly: boolean;
  trackingLimitMs: number;
  now: number;
  /** Each finding as it is found (the walk keeps none of them). */
  onFinding: (finding: Finding) => void;
  onProgress?: (progress: { attempts: number; findings: number; fraction: number }) => void;
}

export interface VerifySummary {
  attempts: number;
  attemptsWithFindings: number;
  statusDifferences: number;
  chainMismatches: number;
  /** Stored events the service refuses: malformed AttemptPrepared met by the walk, and in the attempts' streams. */
  malformedEvents: number;
  /** Attempt events of types this build does not know, skipped (per type). */
  skippedTypes: Record<string, number>;
  /** Transactions whose facts cannot be read again (a past balance, untraceable native value). */
  unverified: number;
  /** Transactions whose chain could not be read now (not in CHAINS_FILE, or the node did not answer). */
  unreachable: number;
  byStatus: Record<string, number>;
  /** Attempts not ended although a deadline that ends them passed (the tracker should have ended them). */
  overdue: { evidence: number; tracking: number; examples: string[] };
}

const OVERDUE_EXAMPLES = 10;

/** The checks of `attempt` over every attempt (of a partner, prepared since a date), streamed; counts only. */
export async function verifyAll(sources: AuditSources, options: VerifyOptions): Promise<VerifySummary> {
  const summary: VerifySummary = {
    attempts: 0,
    attemptsWithFindings: 0,
    statusDifferences: 0,
    chainMismatches: 0,
    malformedEvents: 0,
    skippedTypes: {},
    unverified: 0,
    unreachable: 0,
    byStatus: {},
    overdue: { evidence: 0, tracking: 0, examples: [] },
  };
  let first: number | null = null;
  const filter = { since: options.since, partnerId: options.partnerId };
  const malformed = (attemptId: string, event: QuarantinedEvent) => {
    summary.malformedEvents += 1;
    options.onFinding({ kind: 'malformed', attemptId, event });
  };
  const walked = await forEachPreparedAttempt(
    sources.store,
    {
      filter: (p) =>
        (filter.partnerId === null || p.partnerId === filter.partnerId) &&
        (filter.since === null || p.preparedAt >= filter.since),
      onMalformed: (event) => {
        summary.attemptsWithFindings += 1;
        malformed(attemptIdOfStream(event.streamId), event);
      },
    },
    async ({ attemptId, preparedAt }) => {
      const attempt = await readAttempt(sources.store, attemptId);
      if (attempt === null) return;
      if (attempt.refused !== null) {
        summary.attemptsWithFindings += 1;
        malformed(attemptId, attempt.refused);
        return;
      }
      const { record } = attempt;
      const status = await checkSnapshot(sources.store, sources.chains, record);
      const claims = options.storeOnly ? [] : await readClaims(sources.store, record);
      const refusedClaims = claims.flatMap((c) => (c.refused === null ? [] : [c.refused]));
      const chain = options.storeOnly
        ? null
        : await verifyOnChain(sources, { record, attemptEvents: attempt.events, claims });
      summary.attempts += 1;
      summary.byStatus[record.status] = (summary.byStatus[record.status] ?? 0) + 1;
      summary.statusDifferences += status.differences.length;
      summary.chainMismatches += chain?.mismatches.length ?? 0;
      summary.unverified += chain?.checks.filter((c) => c.outcome === 'unverified').length ?? 0;
      summary.unreachable += chain?.checks.filter((c) => c.outcome === 'unreachable').length ?? 0;
      if (status.differences.length + (chain?.mismatches.length ?? 0) + refusedClaims.length > 0)
        summary.attemptsWithFindings += 1;
      for (const difference of status.differences)
        options.onFinding({ kind: 'status', attemptId, difference });
      for (const mismatch of chain?.mismatches ?? [])
        options.onFinding({ kind: 'chain', attemptId, mismatch });
      for (const event of refusedClaims) malformed(attemptId, event);
      countOverdue(summary.overdue, record, options);
      // How far through the attempts, by the time they were prepared (the log is in that order).
      first ??= preparedAt;
      const fraction = Math.min(1, Math.max(0, (preparedAt - first) / Math.max(1, options.now - first)));
      options.onProgress?.({ attempts: summary.attempts, findings: findings(summary), fraction });
    },
  );
  summary.skippedTypes = walked.skipped;
  options.onProgress?.({ attempts: summary.attempts, findings: findings(summary), fraction: 1 });
  return summary;
}

export const findings = (s: VerifySummary) => s.statusDifferences + s.chainMismatches + s.malformedEvents;

function countOverdue(
  overdue: VerifySummary['overdue'],
  record: AttemptRecord,
  { now, trackingLimitMs }: { now: number; trackingLimitMs: number },
): void {
  if (isTerminalAttemptStatus(record.status)) return;
  const { prepared } = record;
  const noEvidence = record.status === 'prepared' && record.evidence.length === 0;
  const pastEvidence = noEvidence && now > prepared.evidenceDeadlineAt;
  const pastTracking = now > trackingDueAt(record, trackingLimitMs);
  if (pastEvidence) overdue.evidence += 1;
  if (pastTracking) overdue.tracking += 1;
  if ((pastEvidence || pastTracking) && overdue.examples.length < OVERDUE_EXAMPLES)
    overdue.examples.push(prepared.attemptId);
}

/**
 * When an open attempt is overdue for the tracker: at its tracking limit, or, while every open leg is owed past it
 * (its provider can still fill or refund: `followedUntil`, issue 24 item 2), at the earliest of those legs' ends. An
 * attempt waiting for a late Across refund is not overdue.
 */
export function trackingDueAt(record: AttemptRecord, trackingLimitMs: number): number {
  const limitAt = record.prepared.preparedAt + trackingLimitMs;
  const open = record.slices.filter((s) => !isTerminalLegStatus(s.status));
  if (open.length === 0 || open.some((s) => (s.followedUntil ?? null) === null)) return limitAt;
  return Math.max(limitAt, Math.min(...open.map((s) => s.followedUntil!)));
}
