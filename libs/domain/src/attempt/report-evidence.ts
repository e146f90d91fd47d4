import { EVIDENCE_LIMITS, maxTxHashesPerChain } from '@svc/contract';
import { type AttemptEvent, type ReportedChainResult } from './attempt.events';
import { type EvidenceChainResult, type ReportEvidence } from './attempt.commands';
import { AttemptRefusedError } from './attempt-refused.error';
import { type AttemptRecord, type ChainEvidence } from './attempt-record';
import { executionSeen } from './attempt-progress';
import { withLifecycle } from './advance-lifecycle';

/** What a partner does once an attempt can no longer take evidence (issue 25 item 3: every refusal says what next). */
const REQUOTE =
  'nothing more can be reported for it; if the wallet did not execute its chain actions, quote again and prepare a new attempt';
const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Evidence is additive and at-least-once: a replayed report changes nothing, a new one records only what was
 * not recorded before. Initial evidence must beat evidenceDeadlineAt; later evidence is never refused for time.
 * Evidence is bounded per chain (EVIDENCE_LIMITS): a report that would pass the bound is refused whole.
 */
export function reportEvidence(state: AttemptRecord, command: ReportEvidence['data']): AttemptEvent[] {
  const { reportId, submittedAt, signature, now } = command;
  if (state.reportIds.includes(reportId)) return [];
  if (state.status === 'expired') {
    throw new AttemptRefusedError(
      'evidence_deadline_passed',
      `the attempt expired without evidence at its evidenceDeadlineAt ${iso(state.prepared.evidenceDeadlineAt)}: ${REQUOTE}`,
    );
  }
  const unknown = command.chainResults.find(
    (r) => !state.prepared.chainActions.some((a) => a.chainId === r.chainId),
  );
  if (unknown !== undefined) {
    throw new AttemptRefusedError(
      'unknown_chain',
      `the attempt has no chain action on chain ${unknown.chainId}`,
    );
  }
  // A deposit the tracker already saw proves the wallet broadcast in time: its evidence is kept (rule 6).
  const late = now >= state.prepared.evidenceDeadlineAt && !executionSeen(state);
  if (state.status === 'prepared' && state.reportIds.length === 0 && late) {
    throw new AttemptRefusedError(
      'evidence_deadline_passed',
      `initial evidence arrived at ${iso(now)}, after the attempt's evidenceDeadlineAt ${iso(state.prepared.evidenceDeadlineAt)}: ${REQUOTE}`,
    );
  }
  const added = newEvidence(state.evidence, command.chainResults);
  const exceeded = limitExceeded(state, added);
  if (exceeded !== null) throw new AttemptRefusedError('evidence_limit_exceeded', exceeded);
  const events: AttemptEvent[] = [];
  if (added.length > 0) {
    events.push({
      type: 'EvidenceReported',
      data: { reportId, reportedAt: now, submittedAt, chainResults: added },
    });
  }
  if (signature !== null && state.signature === null) {
    events.push({
      type: 'AuthorizationSigned',
      data: { signature: signature.value, signer: signature.signer, signedAt: now },
    });
  }
  return events.length === 0 ? [] : withLifecycle(state, events, now);
}

/** Per chain, the hashes and bundle id this report adds, in the order reported; chains adding nothing are left out. */
function newEvidence(recorded: ChainEvidence[], results: EvidenceChainResult[]): ReportedChainResult[] {
  // Kept apart: some wallets use the tx hash as the bundle id.
  const seen = new Map(
    recorded.map((e) => [e.chainId, { txHashes: new Set(e.txHashes), bundleIds: new Set(e.bundleIds) }]),
  );
  const added: ReportedChainResult[] = [];
  for (const result of results) {
    const known = seen.get(result.chainId) ?? { txHashes: new Set<string>(), bundleIds: new Set<string>() };
    seen.set(result.chainId, known);
    const txHashes = [...new Set(result.txHashes.map((h) => h.toLowerCase()))].filter(
      (h) => !known.txHashes.has(h),
    );
    const bundleId =
      result.bundleId !== null && !known.bundleIds.has(result.bundleId) ? result.bundleId : null;
    txHashes.forEach((h) => known.txHashes.add(h));
    if (bundleId !== null) known.bundleIds.add(bundleId);
    if (txHashes.length > 0 || bundleId !== null) added.push({ chainId: result.chainId, bundleId, txHashes });
  }
  return added;
}

/** Why recording `added` would take a chain past its evidence bound, or null. Chains adding nothing are never refused. */
function limitExceeded(state: AttemptRecord, added: ReportedChainResult[]): string | null {
  for (const chainId of new Set(added.map((r) => r.chainId))) {
    const recorded = state.evidence.find((e) => e.chainId === chainId);
    const adding = added.filter((r) => r.chainId === chainId);
    const callCount = state.prepared.chainActions.find((a) => a.chainId === chainId)?.transactionCount ?? 0;
    const txHashes = (recorded?.txHashes.length ?? 0) + adding.reduce((n, r) => n + r.txHashes.length, 0);
    const bundleIds = (recorded?.bundleIds.length ?? 0) + adding.filter((r) => r.bundleId !== null).length;
    const maxTxHashes = maxTxHashesPerChain(callCount);
    if (txHashes > maxTxHashes) {
      return `chain ${chainId} would hold ${txHashes} distinct transaction hashes; an attempt keeps at most ${maxTxHashes} there`;
    }
    if (bundleIds > EVIDENCE_LIMITS.bundleIds) {
      return `chain ${chainId} would hold ${bundleIds} distinct bundle ids; an attempt keeps at most ${EVIDENCE_LIMITS.bundleIds} there`;
    }
  }
  return null;
}
