/** A setting that stops the process at boot, with a message naming the variable or field. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}
