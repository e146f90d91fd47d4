/** A benchmark run that could not measure what it set out to (a wrong outcome, a timeout): the run fails. */
export class BenchFailure extends Error {
  override readonly name = 'BenchFailure';
}

/** One line of a benchmark's output on stdout. */
export const log = (line: string) => process.stdout.write(`${line}\n`);
