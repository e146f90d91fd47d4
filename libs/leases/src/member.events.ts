type Event<Type extends string, Data> = { type: Type; data: Data };

/** Events of `lease-<group>-members`: who takes part in splitting the group's shards. Times are epoch ms. */
export type MemberEvent =
  /** The instance is alive and counts for the fair share until `until` unless it heartbeats again. */
  | Event<'MemberHeartbeat', { owner: string; until: number }>
  /** The instance stopped gracefully: it stops counting at once. */
  | Event<'MemberLeft', { owner: string }>;

export const MEMBER_EVENT_TYPES: ReadonlySet<string> = new Set<MemberEvent['type']>([
  'MemberHeartbeat',
  'MemberLeft',
]);
