import { BenchFailure } from './bench-failure';
import { type BenchReceiver } from './webhook-receiver-server';
import { LIFECYCLE } from './webhook-lifecycle';

export interface WebhookDelivered {
  expected: number;
  arrived: number;
  /** Append resolved → receiver processed, ms; Infinity for a webhook that had not arrived when the wait ended. */
  latencies: number[];
  byKind: Record<string, number[]>;
  /** First lifecycle append → last arrival. */
  wallMs: number;
  posts: number;
  refused: number;
}

/** Where and when each timed lifecycle event was appended, by eventId. */
export type Appended = Map<string, { partnerId: string; attemptId: string; kind: string; at: number }>;

/**
 * What one partner's receiver got, checked: only eventIds appended for that partner, each processed once, in the
 * right kind for its attempt, per attempt in lifecycle order (a prefix of it where some never came).
 */
export function checkWebhookArrivals(
  partnerId: string,
  receiver: BenchReceiver,
  appended: Appended,
  expected: number,
  started: number,
): WebhookDelivered {
  const duplicates = [...receiver.processed.entries()].filter(([, n]) => n > 1);
  if (duplicates.length > 0) {
    throw new BenchFailure(`${partnerId}: ${duplicates.length} eventIds processed more than once`);
  }
  const latencies: number[] = [];
  const byKind: Record<string, number[]> = {};
  const order = new Map<string, { kind: string; at: number }[]>();
  for (const arrival of receiver.arrivals.values()) {
    const source = appended.get(arrival.eventId);
    if (!source || source.partnerId !== partnerId) {
      throw new BenchFailure(`${partnerId}: unknown eventId ${arrival.eventId} arrived`);
    }
    if (arrival.event !== source.kind || arrival.attemptId !== source.attemptId) {
      throw new BenchFailure(
        `${partnerId}: ${arrival.eventId} arrived as ${arrival.event} of ${String(arrival.attemptId)}, ` +
          `appended as ${source.kind} of ${source.attemptId}`,
      );
    }
    const ms = arrival.at - source.at;
    latencies.push(ms);
    (byKind[source.kind] ??= []).push(ms);
    order.set(source.attemptId, [
      ...(order.get(source.attemptId) ?? []),
      { kind: source.kind, at: arrival.at },
    ]);
  }
  const kinds = LIFECYCLE.map((l) => l.kind);
  for (const [attemptId, seq] of order) {
    const got = [...seq].sort((a, b) => a.at - b.at).map((s) => s.kind);
    if (got.join(',') !== kinds.slice(0, got.length).join(',')) {
      throw new BenchFailure(`${partnerId}: ${attemptId} arrived as ${got.join(',')}`);
    }
  }
  const arrived = latencies.length;
  const last = Math.max(started, ...[...receiver.arrivals.values()].map((a) => a.at));
  return {
    expected,
    arrived,
    latencies: [...latencies, ...Array.from({ length: expected - arrived }, () => Infinity)],
    byKind,
    wallMs: last - started,
    posts: receiver.posts.total,
    refused: receiver.posts.refused503,
  };
}
