/** A fault definition (POST /faults body or SANDBOX_FAULTS) that cannot be applied; the message names the field. */
export class FaultConfigError extends Error {
  override readonly name = 'FaultConfigError';
}
