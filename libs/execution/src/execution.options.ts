/** Settings of the execution feature (docs/operations/configuration.md), bound by the composition root. */
export interface ExecutionOptions {
  /** The attempt's signable window (spec: 30 s). */
  signableSeconds: number;
  /**
   * Execution time allowed after the signable window (sending, inclusion, reporting): evidence is never due before
   * the window's end plus this, and a provider quote that stops holding sooner is quoted again at prepare, or refused.
   */
  executionSeconds: number;
  /** Initial evidence must arrive within this, or the providers' own deadlines if sooner (default 15 min). */
  evidenceWindowSeconds: number;
  /** message.expiresAt of the wallet authorization: its own validity (default 24 h). */
  authorizationTtlSeconds: number;
  /**
   * Provider quotes older than this are quoted again at prepare (same parameters), even before their hard deadline:
   * a provider may have moved its price, and prepare must never hand out calls the provider will reject.
   */
  quoteFreshnessSeconds: number;
  /** EIP-712 domain of the wallet authorization (name and version only). */
  authorizationDomain: { name: string; version: string };
}

export const EXECUTION_OPTIONS = Symbol('EXECUTION_OPTIONS');

export const DEFAULT_EXECUTION_OPTIONS: ExecutionOptions = {
  signableSeconds: 30,
  executionSeconds: 30,
  evidenceWindowSeconds: 900,
  authorizationTtlSeconds: 86_400,
  quoteFreshnessSeconds: 30,
  authorizationDomain: { name: 'Intent Service Execution', version: '1' },
};
