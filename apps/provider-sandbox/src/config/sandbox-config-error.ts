/** A sandbox setting that stops `npm run sandbox` at boot, with a message naming the variable. */
export class SandboxConfigError extends Error {
  override readonly name = 'SandboxConfigError';
}
