/** spec: Enumerations / submitMethod. `wallet_sendCalls` only when the wallet reported atomic batching. */
export const SUBMIT_METHODS = ['sendTransaction', 'wallet_sendCalls'] as const;

export type SubmitMethod = (typeof SUBMIT_METHODS)[number];
