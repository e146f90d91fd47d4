import { type AggregateRead } from '@svc/event-store';

/** A shard's lease stream. Shard numbers are integers, so no group's shard stream can be another's members stream. */
export const leaseStreamId = (group: string, shard: number): string => `lease-${group}-${shard}`;

export const membersStreamId = (group: string): string => `lease-${group}-members`;

/** Only the newest lease event matters (each states the whole lease); a few more are kept for diagnosis. */
export const LEASE_STREAM_MAX_COUNT = 32;

/**
 * A member counts while its latest heartbeat is in the stream: with renewals every ttl/3 that holds for groups of
 * up to about 80 instances.
 */
export const MEMBERS_STREAM_MAX_COUNT = 256;

/** Reads a stream's newest event alone: enough where it states everything, or where nothing before it matters. */
export const NEWEST_EVENT: AggregateRead = { direction: 'backwards', maxCount: 1 };
