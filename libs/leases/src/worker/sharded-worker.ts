import { type EventStore } from '@svc/event-store';
import { type Clock } from '@svc/platform';
import { type ShardLeases } from '../shard-leases';
import { leasesFor, type WorkSharing } from '../work-sharing';
import { errorMessage, type WorkerLogger } from './worker-logger';

/** What every sharded worker is made of. */
export interface ShardedWorkerOptions {
  store: EventStore;
  clock: Clock;
  sharing: WorkSharing;
  /** Names its lease streams (`lease-<group>-<shard>`). */
  group: string;
  /** Default: `sharing.shardCount`; 1 for a singleton (one instance works, another takes over when it dies). */
  shardCount?: number;
  logger: WorkerLogger;
  /** The message logged when this instance's shards change (`{ msg, shards }`). */
  ownershipMessage: string;
}

/**
 * The skeleton every background worker shares (the settlement tracker, the webhook dispatcher, the outbox relay): a
 * lease group joined at boot and left at shutdown (a graceful stop hands the shards over at once, a crash after the
 * leases expire), ownership changes logged, lease-round errors logged without stopping anything. A worker adds what
 * is its own in the hooks, and asks `this.leases` which keys are its to work on.
 *
 * Nest calls onApplicationBootstrap/onApplicationShutdown on a provider that has them; the subclass is the
 * @Injectable.
 */
export abstract class ShardedWorker {
  protected readonly leases: ShardLeases;

  protected constructor(protected readonly worker: ShardedWorkerOptions) {
    this.leases = leasesFor(worker.sharing, {
      store: worker.store,
      clock: worker.clock,
      group: worker.group,
      shardCount: worker.shardCount,
      onChange: (owned) => {
        worker.logger.log({ msg: worker.ownershipMessage, shards: [...owned] });
        this.onOwnershipChange(owned);
      },
      onError: (err) =>
        worker.logger.warn({ msg: `${worker.group} lease round failed`, error: errorMessage(err) }),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.beforeJoin();
    await this.leases.join();
    await this.afterJoin();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.beforeLeave();
    await this.leases.leave();
  }

  /** Before the leases are asked for (restore state: the first round may hand shards over at once). */
  protected async beforeJoin(): Promise<void> {}
  /** Once the first lease round ran: start working. */
  protected async afterJoin(): Promise<void> {}
  /** At shutdown, while the leases are still held: stop working and save what must survive. */
  protected async beforeLeave(): Promise<void> {}
  /** The shards held changed (also a lapse between rounds: reported as lost, then owned again). */
  protected onOwnershipChange(_owned: ReadonlySet<number>): void {}
}
