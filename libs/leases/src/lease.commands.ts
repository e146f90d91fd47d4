type Command<Type extends string, Data> = { type: Type; data: Data };

/** Take the lease, or extend it when `owner` already holds it, until `now + ttlMs`. */
export type AcquireLease = Command<'AcquireLease', { owner: string; now: number; ttlMs: number }>;

/** Hand the lease back; only its holder can. */
export type ReleaseLease = Command<'ReleaseLease', { owner: string; now: number }>;

export type LeaseCommand = AcquireLease | ReleaseLease;
