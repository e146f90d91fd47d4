/** When a provider (or no-op) leg is looked at next, and since when its provider has reported a failure. */
export interface LegSchedule {
  nextPollAt: number;
  delayMs: number;
  lastPollAt: number | null;
  /** The first poll that answered `failed` in the current run of failures; null when the last answer was not one. */
  failureSince: number | null;
  /** A delivery to the leg's recipient was seen on chain since the last poll: poll now, once. */
  hinted?: boolean;
}

/** A reported source hash the node did not know (or had not mined) yet. */
export interface HashSchedule {
  firstTriedAt: number;
  nextReadAt: number;
  delayMs: number;
}

/**
 * The tracking workflow's own state for one attempt: pacing only. Every fact lives in the attempt's stream; this
 * can be lost (a restart) at the cost of looking a little early.
 */
export interface TrackingState {
  legs: Readonly<Record<string, LegSchedule>>;
  hashes: Readonly<Record<string, HashSchedule>>;
  /** The deposit search before expiry ran (it runs once) … */
  depositSearched: boolean;
  /** … and found the wallet's deposit although no evidence was reported. */
  depositFound: boolean;
}

export const initialTrackingState: TrackingState = {
  legs: {},
  hashes: {},
  depositSearched: false,
  depositFound: false,
};

/** What the tracker decided about its pacing; each carries the resulting schedule. */
export type TrackingEvent =
  | { type: 'LegScheduled'; sliceId: string; schedule: LegSchedule }
  /**
   * The chain showed a delivery to this leg's recipient: look now, once, even inside the provider's minimum interval
   * (one extra poll per delivery seen, not a faster pace).
   */
  | { type: 'LegHinted'; sliceId: string; at: number }
  | { type: 'HashScheduled'; key: string; schedule: HashSchedule | null }
  | { type: 'DepositSearched'; found: boolean };

export const hashKey = (chainId: number, txHash: string) => `${chainId}:${txHash.toLowerCase()}`;

export function evolveTracking(state: TrackingState, event: TrackingEvent): TrackingState {
  switch (event.type) {
    case 'LegScheduled':
      return { ...state, legs: { ...state.legs, [event.sliceId]: event.schedule } };
    case 'LegHinted': {
      const leg = state.legs[event.sliceId];
      if (leg === undefined || leg.hinted === true) return state;
      return {
        ...state,
        legs: {
          ...state.legs,
          [event.sliceId]: { ...leg, nextPollAt: Math.min(leg.nextPollAt, event.at), hinted: true },
        },
      };
    }
    case 'HashScheduled': {
      const { [event.key]: _dropped, ...rest } = state.hashes;
      return { ...state, hashes: event.schedule === null ? rest : { ...rest, [event.key]: event.schedule } };
    }
    case 'DepositSearched':
      return { ...state, depositSearched: true, depositFound: state.depositFound || event.found };
    default:
      // Kept in memory only, never stored: still, an event it does not know changes nothing.
      return state;
  }
}
