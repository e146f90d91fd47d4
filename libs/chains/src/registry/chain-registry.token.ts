/** Injection token for the ChainRegistry, bound by the composition root. */
export const CHAIN_REGISTRY = Symbol('CHAIN_REGISTRY');
