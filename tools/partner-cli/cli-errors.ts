/** The command line itself is wrong (exit code 2, usage printed). */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}

/** The environment or the partners file cannot give a partner to sign as (exit code 2). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError' as const;
}

/** A sandbox-only command was pointed at something that is not the local provider sandbox (exit code 2). */
export class SandboxOnlyError extends Error {
  override readonly name = 'SandboxOnlyError' as const;
}
