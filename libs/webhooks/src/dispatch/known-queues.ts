import { type WebhookDeliveryState } from '@svc/domain';
import { type KnownStream } from '@svc/event-store';

/**
 * The webhook queue of each attempt as this dispatcher last wrote or read it, with its revision: the next command on
 * the attempt decides on it instead of reading `webhook-<attemptId>` again, and a run knows the head to send. A copy
 * may go stale (a redelivery, a webhook queued by another instance): commands stay right (an append at its revision
 * fails and the command reads the stream), and the dispatcher forgets a copy once it sees a newer event of that
 * stream. Bounded: the least recently written attempt goes first.
 */
export class KnownQueues {
  private readonly queues = new Map<string, KnownStream<WebhookDeliveryState>>();

  constructor(private readonly capacity = 10_000) {}

  of(attemptId: string): KnownStream<WebhookDeliveryState> | undefined {
    return this.queues.get(attemptId);
  }

  /** The queue after a command or a read; an older copy (commands finishing out of order) never replaces a newer. */
  remember(attemptId: string, queue: KnownStream<WebhookDeliveryState>): void {
    const held = this.queues.get(attemptId);
    if (held !== undefined && revisionOf(held) > revisionOf(queue)) return;
    this.queues.delete(attemptId);
    if (this.queues.size >= this.capacity) {
      const [oldest] = this.queues.keys();
      if (oldest !== undefined) this.queues.delete(oldest);
    }
    this.queues.set(attemptId, queue);
  }

  /**
   * An event of the attempt's stream at `revision` exists: a copy older than it is stale (forgotten). True when the
   * event is news here: no copy holds it (written elsewhere, or a copy no longer held); false when the copy already
   * does (this dispatcher wrote or read it).
   */
  seen(attemptId: string, revision: number): boolean {
    const held = this.queues.get(attemptId);
    if (held !== undefined && revisionOf(held) >= revision) return false;
    if (held !== undefined) this.queues.delete(attemptId);
    return true;
  }

  forget(attemptId: string): void {
    this.queues.delete(attemptId);
  }
}

function revisionOf(queue: KnownStream<WebhookDeliveryState>): number {
  return queue.revision === 'no_stream' ? -1 : queue.revision;
}
