/** Real time plus an offset the test moves forward, so expiry is tested without sleeping. */
export function controllableClock(): { clock: () => Date; advance: (ms: number) => void } {
  let offsetMs = 0;
  return {
    clock: () => new Date(Date.now() + offsetMs),
    advance: (ms) => {
      offsetMs += ms;
    },
  };
}
