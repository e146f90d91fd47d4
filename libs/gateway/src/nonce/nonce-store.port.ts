import { type NonceState, type UseNonce } from '@svc/domain';

/**
 * Where v2 nonce bindings are kept, keyed by partner and nonce, each for NONCE_RETENTION_SECONDS at least. Both
 * operations apply the nonce decider (`@svc/domain`): the store only decides how its state is read and written.
 */
export interface NonceStore {
  /** The nonce's binding as the decider folds it: `unused`, or `used` by one tuple. Reads only. */
  binding(partnerId: string, nonce: string): Promise<NonceState>;
  /**
   * Decides UseNonce on the binding, atomically against every other writer (another connection or process):
   * true when the nonce is now bound to this tuple (by this call or an earlier one), false when another tuple
   * holds it.
   */
  use(partnerId: string, nonce: string, command: UseNonce): Promise<boolean>;
}
