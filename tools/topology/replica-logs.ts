import { type AppProcess } from '@svc/testing';

/** What the apps' JSON log lines say about consumer groups, shard leases and handled messages, with their times. */

export interface GroupJoin {
  time: number;
  groupId: string;
  /** Topic → partitions this member got. */
  assignment: Record<string, number[]>;
}

interface LogRecord {
  time: number;
  msg: string;
  fields: Record<string, unknown>;
}

function records(app: AppProcess): LogRecord[] {
  const out: LogRecord[] = [];
  for (const line of app.lines) {
    if (!line.startsWith('{')) continue;
    try {
      const { time, msg, ...fields } = JSON.parse(line) as { time: number; msg?: string };
      out.push({ time, msg: msg ?? '', fields });
    } catch {
      // not a log line
    }
  }
  return out;
}

/**
 * kafkajs's "Consumer has joined the group" (logged by Nest's Kafka client and server at debug level: the replica
 * suite runs with LOG_LEVEL=debug), one per member per rebalance.
 */
export function groupJoins(app: AppProcess): GroupJoin[] {
  return records(app).flatMap(({ time, msg }) => {
    const match = /Consumer has joined the group (\{.*\})$/.exec(msg);
    if (!match) return [];
    const payload = JSON.parse(match[1]) as { groupId: string; memberAssignment: Record<string, number[]> };
    return [{ time, groupId: payload.groupId, assignment: payload.memberAssignment }];
  });
}

/** Partitions held per consumer group, by the instance's latest join of each. */
export function latestAssignments(app: AppProcess): number[] {
  const latest = new Map<string, Record<string, number[]>>();
  for (const join of groupJoins(app)) latest.set(join.groupId, join.assignment);
  return [...latest.values()].map((a) => Object.values(a).flat().length);
}

/** The shard sets an instance held over time (`tracking shards`, `delivering for shards`, `outbox lease`). */
export function shardChanges(app: AppProcess, msg: string): { time: number; shards: number[] }[] {
  return records(app)
    .filter((r) => r.msg === msg)
    .map((r) => ({ time: r.time, shards: (r.fields['shards'] as number[] | undefined) ?? [] }));
}

/** Every bus message the instance handled (the bus-handler interceptor's line). */
export function handledMessages(app: AppProcess): { time: number; pattern: string }[] {
  return records(app)
    .filter((r) => r.msg === 'bus message handled')
    .map((r) => ({ time: r.time, pattern: String(r.fields['pattern']) }));
}

/** Partitions in an assignment, e.g. `quoting.quote:0,1`. */
export function describeAssignment(assignment: Record<string, number[]>): string {
  return Object.entries(assignment)
    .map(([topic, partitions]) => `${topic}:${partitions.join(',')}`)
    .join(' ');
}
