import { storedEventShapes } from '@svc/contract';

type Event<Type extends string, Data> = { type: Type; data: Data };

/** Events of `lease-<group>-members`: who takes part in splitting the group's shards. Times are epoch ms. */
export type MemberEvent =
  /** The instance is alive and counts for the fair share until `until` unless it heartbeats again. */
  | Event<'MemberHeartbeat', { owner: string; until: number }>
  /** The instance stopped gracefully: it stops counting at once. */
  | Event<'MemberLeft', { owner: string }>;

/** What a stored member event must hold for evolveMembers to fold it: a known type, plain data. */
export const memberEventShapes = storedEventShapes<MemberEvent>({ MemberHeartbeat: true, MemberLeft: true });

export const MEMBER_EVENT_TYPES: ReadonlySet<string> = memberEventShapes.knownEventTypes;
