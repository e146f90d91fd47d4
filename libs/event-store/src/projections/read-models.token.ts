/** Injection token for the read models' database (ReadModelDb), bound by the composition root. */
export const READ_MODELS = Symbol('READ_MODELS');
