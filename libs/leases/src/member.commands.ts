type Command<Type extends string, Data> = { type: Type; data: Data };

/** The instance is alive: count it for the fair share until `until`. */
export type Heartbeat = Command<'Heartbeat', { owner: string; until: number }>;

/** The instance stops gracefully: stop counting it at once. */
export type Leave = Command<'Leave', { owner: string }>;

export type MemberCommand = Heartbeat | Leave;
