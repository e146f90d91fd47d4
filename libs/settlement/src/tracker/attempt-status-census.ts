import { ATTEMPT_STATUSES, type AttemptStatus, isTerminalAttemptStatus } from '@svc/contract';
import { lifecycleStatusOf } from '@svc/domain';

export interface CensusSnapshot {
  open: [string, AttemptStatus][];
  terminal: Partial<Record<AttemptStatus, number>>;
}

/**
 * How many attempts are in each status, folded from the attempt events in store order. Memory holds the open
 * attempts only (a terminal one is just counted), like the tracker's own work list.
 */
export class AttemptStatusCensus {
  private readonly openStatus = new Map<string, AttemptStatus>();
  private readonly terminal = new Map<AttemptStatus, number>();

  observe(attemptId: string, eventType: string): void {
    const status = lifecycleStatusOf(eventType);
    if (!status) return;
    const before = this.openStatus.get(attemptId);
    if (!before && status !== 'prepared') return; // prepared before this census began, or already terminal
    if (isTerminalAttemptStatus(status)) {
      this.openStatus.delete(attemptId);
      this.terminal.set(status, (this.terminal.get(status) ?? 0) + 1);
    } else {
      this.openStatus.set(attemptId, status);
    }
  }

  /** What a checkpoint keeps, to resume counting without re-reading the log. */
  snapshot(): CensusSnapshot {
    return { open: [...this.openStatus], terminal: Object.fromEntries(this.terminal) };
  }

  restore(snapshot: CensusSnapshot): void {
    this.openStatus.clear();
    this.terminal.clear();
    for (const [attemptId, status] of snapshot.open) this.openStatus.set(attemptId, status);
    for (const [status, count] of Object.entries(snapshot.terminal))
      this.terminal.set(status as AttemptStatus, count);
  }

  counts(): Record<AttemptStatus, number> {
    const counts = Object.fromEntries(ATTEMPT_STATUSES.map((s) => [s, this.terminal.get(s) ?? 0])) as Record<
      AttemptStatus,
      number
    >;
    for (const status of this.openStatus.values()) counts[status]++;
    return counts;
  }
}
