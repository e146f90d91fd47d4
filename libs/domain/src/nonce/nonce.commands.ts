type Command<Type extends string, Data> = { type: Type; data: Data };

/** A request signed with this nonce passed every check: bind the nonce to its tuple. */
export type UseNonce = Command<'UseNonce', { tupleHash: string; now: number }>;

export type NonceCommand = UseNonce;
