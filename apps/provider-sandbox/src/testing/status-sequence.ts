import { httpJson } from './sandbox-test-kit';

/** Status of a 404 answer (not yet indexed), for dialects that answer 404 before they know the deposit. */
export const NOT_INDEXED = 'not-indexed';

/**
 * Polls a status endpoint every 20 ms and records each status it reports, consecutive repeats dropped, until
 * `done` holds (default 10 s). `pick` reads the status from a 200 body. Test-only.
 */
export async function statusSequence(
  url: string,
  pick: (body: unknown) => string,
  done: (status: string) => boolean,
  timeoutMs = 10_000,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dialect's JSON; specs assert on its shape
): Promise<{ statuses: string[]; body: any }> {
  const deadline = Date.now() + timeoutMs;
  const statuses: string[] = [];
  for (;;) {
    const answer = await httpJson(url);
    if (answer.status !== 200 && answer.status !== 404) {
      throw new Error(`${url}: ${answer.status} ${answer.text}`);
    }
    const status = answer.status === 404 ? NOT_INDEXED : pick(answer.body);
    if (statuses[statuses.length - 1] !== status) statuses.push(status);
    if (answer.status === 200 && done(status)) return { statuses, body: answer.body as unknown };
    if (Date.now() > deadline) throw new Error(`timed out; statuses so far ${statuses.join(' → ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether `observed` is `full` with some steps skipped (a poll can miss a short-lived status). */
export function isSubsequence(observed: readonly string[], full: readonly string[]): boolean {
  let at = 0;
  for (const status of observed) {
    while (at < full.length && full[at] !== status) at++;
    if (at === full.length) return false;
    at++;
  }
  return true;
}
