/** The command line itself is wrong (exit code 2, usage printed). */
export class UsageError extends Error {
  override readonly name = 'UsageError' as const;
}
