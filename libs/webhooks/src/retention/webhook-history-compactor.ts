import { Inject, Injectable, Logger } from '@nestjs/common';
import { canTruncateStreams, EVENT_STORE, type EventStore } from '@svc/event-store';
import { errorMessage, ShardedWorker, WORK_SHARING, type WorkSharing } from '@svc/leases';
import { CLOCK, type Clock, PassScheduler } from '@svc/platform';
import {
  DEFAULT_WEBHOOK_HISTORY_OPTIONS,
  WEBHOOKS_OPTIONS,
  type WebhookHistoryOptions,
  type WebhooksOptions,
} from '../webhooks.options';
import {
  COMPACTION_GROUP,
  compactWebhookHistories,
  type CompactionReport,
} from './compact-webhook-histories';

const DAY_MS = 86_400_000;

/**
 * The webhook history compaction (docs/webhooks.md "Retention"): every `compactEveryMs`, one bounded pass
 * (compactWebhookHistories) summarising the delivery history of webhook streams whose events all ended longer than the
 * retention ago, and truncating them before the summary. One instance per store does it: the holder of a single lease
 * (`lease-webhook-history-compaction-0`), as the outbox relay; another takes over when it dies, and resumes from the
 * pass's checkpoint.
 */
@Injectable()
export class WebhookHistoryCompactor extends ShardedWorker {
  private readonly history: WebhookHistoryOptions;
  private readonly scheduler = new PassScheduler(async () => {
    await this.pass();
  });
  private last: CompactionReport | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(WEBHOOKS_OPTIONS) options: WebhooksOptions,
    @Inject(WORK_SHARING) sharing: WorkSharing,
  ) {
    super({
      store,
      clock,
      sharing,
      group: COMPACTION_GROUP,
      shardCount: 1,
      logger: new Logger('WebhookHistoryCompactor'),
      ownershipMessage: 'webhook history compaction lease',
    });
    this.history = options.history ?? DEFAULT_WEBHOOK_HISTORY_OPTIONS;
  }

  /**
   * One pass now, where this instance holds the lease (null elsewhere, and on a store that cannot truncate): for
   * tests and operators. Passes never overlap.
   */
  async tick(): Promise<CompactionReport | null> {
    await this.scheduler.run();
    return this.last;
  }

  protected override afterJoin(): Promise<void> {
    this.scheduler.start(this.history.compactEveryMs);
    return Promise.resolve();
  }

  protected override beforeLeave(): Promise<void> {
    return this.scheduler.stop();
  }

  private async pass(): Promise<void> {
    this.last = null;
    const store = this.store;
    if (!canTruncateStreams(store)) return;
    try {
      await this.leases.ensureCurrent();
      if (!this.leases.owns(0)) return;
      const report = await compactWebhookHistories(store, {
        now: this.clock.now(),
        retentionMs: this.history.retentionDays * DAY_MS,
        maxStreams: this.history.streamsPerPass,
      });
      this.last = report;
      const { compacted, truncated, unknown_types: unknownTypes, malformed } = report.streams;
      if (compacted + truncated + unknownTypes + malformed > 0)
        this.worker.logger.log({ msg: 'webhook histories compacted', ...report.streams });
    } catch (error) {
      this.worker.logger.error({ msg: 'webhook history compaction pass failed', error: errorMessage(error) });
    }
  }
}
