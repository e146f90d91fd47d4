/** What scanArgs found: positionals, boolean flags given, and `--name value` / `--name=value` options. */
export interface ScannedArgs {
  positional: string[];
  flags: Set<string>;
  values: Record<string, string | undefined>;
}

/**
 * Splits a command line's arguments into positionals, boolean flags and valued options, the way the operators' CLIs
 * read them. A flag given a value, an option given twice or without a value, and an unknown option are refused
 * through `usage` (each CLI's own usage error, exit code 2).
 */
export function scanArgs(
  args: readonly string[],
  options: { booleans: readonly string[]; valued: readonly string[] },
  usage: (message: string) => Error,
): ScannedArgs {
  const positional: string[] = [];
  const flags = new Set<string>();
  const values: Record<string, string | undefined> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (options.booleans.includes(flag)) {
      if (eq !== -1) throw usage(`--${flag} takes no value`);
      flags.add(flag);
    } else if (options.valued.includes(flag)) {
      if (values[flag] !== undefined) throw usage(`--${flag} given twice`);
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '' || (eq === -1 && value.startsWith('--')))
        throw usage(`--${flag} needs a value`);
      values[flag] = value;
    } else {
      throw usage(`unknown option --${flag}`);
    }
  }
  return { positional, flags, values };
}
