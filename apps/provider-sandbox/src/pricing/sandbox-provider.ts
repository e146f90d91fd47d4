/** The three cross-chain providers the sandbox impersonates; each has its own dialect, filler and faults. */
export const SANDBOX_PROVIDERS = ['relay', 'across', 'mayan'] as const;

export type SandboxProvider = (typeof SANDBOX_PROVIDERS)[number];

export function isSandboxProvider(value: unknown): value is SandboxProvider {
  return typeof value === 'string' && (SANDBOX_PROVIDERS as readonly string[]).includes(value);
}
