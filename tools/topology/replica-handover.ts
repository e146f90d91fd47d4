import { type AppProcess, DISTRIBUTED_APPS, type Topology } from '@svc/testing';
import { describeAssignment, groupJoins, handledMessages, shardChanges } from './replica-logs';

/** How one survivor took over the work of a replica of the same app that died or stopped at `since`. */
export interface Handover {
  survivor: AppProcess;
  /** Per consumer group the survivor is in: ms to its first join after `since`, and what it got then. */
  groups: { groupId: string; ms: number | null; assignment: string }[];
  /** ms to the first bus message it handled once rebalanced (null: none yet, or it serves none). */
  firstHandledMs: number | null;
  /** ms until it held every shard of its lease group (tracker, dispatcher; null: not yet, or no leases). */
  shardsMs: number | null;
  /** ms until it held the outbox relay's lease, where the replica gone held it. */
  relayMs: number | null;
  complete: boolean;
}

const SHARD_MESSAGES: Partial<Record<string, string>> = {
  'settlement-tracker': 'tracking shards',
  'webhook-dispatcher': 'delivering for shards',
};
const RELAY_MESSAGE = 'outbox lease';

/** The shards the instance holds now (its latest ownership line); null for an app without shard leases. */
export function heldShards(app: AppProcess): number[] | null {
  const message = SHARD_MESSAGES[app.name];
  return message ? (shardChanges(app, message).at(-1)?.shards ?? []) : null;
}

/** One running replica of each app to stop, and the one that stays; the dispatcher stopped is the outbox relay's. */
export function victimsAndSurvivors(topology: Topology): [AppProcess, AppProcess][] {
  return DISTRIBUTED_APPS.map((app) => {
    const [first, second] = topology.running(app);
    return app === 'webhook-dispatcher' && heldRelay(second) ? [second, first] : [first, second];
  });
}

/** Whether the instance held the outbox relay's lease at `time`. */
export function heldRelay(app: AppProcess, time = Date.now()): boolean {
  const changes = shardChanges(app, RELAY_MESSAGE).filter((c) => c.time <= time);
  return (changes.at(-1)?.shards.length ?? 0) > 0;
}

/** Reads the survivor's log for the takeover of `gone`'s work (its groups, its shards, its relay) since `since`. */
export function measureHandover(
  survivor: AppProcess,
  gone: AppProcess,
  since: number,
  shardCount: number,
): Handover {
  const joins = groupJoins(survivor);
  const groupIds = [...new Set(joins.filter((j) => j.time < since).map((j) => j.groupId))];
  const groups = groupIds.map((groupId) => {
    const join = joins.find((j) => j.groupId === groupId && j.time >= since);
    return {
      groupId,
      ms: join ? join.time - since : null,
      assignment: join ? describeAssignment(join.assignment) : '',
    };
  });
  const rebalancedAt = Math.max(since, ...groups.map((g) => since + (g.ms ?? 0)));
  const firstHandled = handledMessages(survivor).find((m) => m.time >= rebalancedAt);
  const shardMessage = SHARD_MESSAGES[survivor.name];
  const allShards = shardMessage
    ? shardChanges(survivor, shardMessage).find((c) => c.time >= since && c.shards.length === shardCount)
    : undefined;
  const relayWasGone = survivor.name === 'webhook-dispatcher' && heldRelay(gone, since);
  const relay = relayWasGone
    ? shardChanges(survivor, RELAY_MESSAGE).find((c) => c.time >= since && c.shards.length > 0)
    : undefined;
  return {
    survivor,
    groups,
    firstHandledMs: firstHandled ? firstHandled.time - since : null,
    shardsMs: allShards ? allShards.time - since : null,
    relayMs: relay ? relay.time - since : null,
    complete:
      groups.every((g) => g.ms !== null) &&
      (!shardMessage || allShards !== undefined) &&
      (!relayWasGone || relay !== undefined),
  };
}

/** A table for the test output: what each survivor took over, and how long after `since` it did. */
export function formatHandovers(title: string, handovers: Handover[]): string {
  const s = (ms: number | null) => (ms === null ? '-' : `${(ms / 1000).toFixed(1)} s`);
  const rows = handovers.flatMap((h) => [
    ...h.groups.map(
      (g) =>
        `  ${h.survivor.instanceId.padEnd(22)} group ${g.groupId.padEnd(30)} ${s(g.ms).padStart(7)}  ${g.assignment}`,
    ),
    ...(h.shardsMs !== null
      ? [`  ${h.survivor.instanceId.padEnd(22)} all shards leased${s(h.shardsMs).padStart(28)}`]
      : []),
    ...(h.relayMs !== null
      ? [`  ${h.survivor.instanceId.padEnd(22)} outbox relay lease${s(h.relayMs).padStart(27)}`]
      : []),
    ...(h.firstHandledMs !== null
      ? [`  ${h.survivor.instanceId.padEnd(22)} first bus message handled${s(h.firstHandledMs).padStart(20)}`]
      : []),
  ]);
  return [title, ...rows].join('\n');
}
