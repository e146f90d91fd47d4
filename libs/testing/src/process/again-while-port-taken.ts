/** How many times a server is started on fresh ports when the port it found free was taken before it bound it. */
export const PORT_TRIES = 3;

/**
 * Runs `start` again, up to `tries` times in all, while it fails because a port found free a moment before was taken
 * before the server bound it (an outgoing connection of another test process can get the same ephemeral port, seconds
 * later). `portTaken` tells that failure from any other, which is thrown at once.
 */
export async function againWhilePortTaken<T>(
  start: () => Promise<T>,
  portTaken: (err: unknown) => boolean | Promise<boolean>,
  options: { tries?: number; onRetry?: (tries: number, err: unknown) => void } = {},
): Promise<T> {
  const tries = options.tries ?? PORT_TRIES;
  for (let n = 1; ; n++) {
    try {
      return await start();
    } catch (err) {
      if (n >= tries || !(await portTaken(err))) throw err;
      options.onRetry?.(n, err);
    }
  }
}
