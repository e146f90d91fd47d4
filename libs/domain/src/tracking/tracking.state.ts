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
 * The tracking workflow's own state for one attempt: pacing only. Every fact lives in the attempt's stream. The
 * tracker keeps it in its checkpoint (issue 24 item 2), so a restart resumes each leg's backoff, a Relay failure's
 * grace (`failureSince`) and the deposit search's retries where they were, at most one checkpoint interval old.
 */
export interface TrackingState {
  legs: Readonly<Record<string, LegSchedule>>;
  hashes: Readonly<Record<string, HashSchedule>>;
  /** The deposit search before expiry ran (it runs once) … */
  depositSearched: boolean;
  /** … and found the wallet's deposit although no evidence was reported. */
  depositFound: boolean;
  /**
   * The deposit search failed (a node error, a step over its budget) this many times in a row and is tried again at
   * `nextAt`; null when it never failed or has ended. While it is set the evidence-deadline expiry is held (N-H1).
   */
  depositSearchRetry?: { failures: number; nextAt: number } | null;
  /**
   * The deposit search found the wallet's execution of the prepared calls but another open attempt of the wallet
   * could own it too (ADR 0009): claimed for nobody; the expiry names them. Absent when none (and in older checkpoints).
   */
  ambiguousSources?: readonly { chainId: number; txHash: string }[];
}

/** A failed deposit search is retried after this, doubling … */
export const DEPOSIT_SEARCH_BACKOFF_MIN_MS = 1_000;
/** … up to this … */
export const DEPOSIT_SEARCH_BACKOFF_MAX_MS = 60_000;
/**
 * … and given up after this many failures in a row (about 4 minutes of retries): the search counts as done and found
 * nothing, so an attempt without evidence expires.
 */
export const DEPOSIT_SEARCH_MAX_FAILURES = 8;

/** The deposit search failed and will be tried again: the evidence-deadline expiry waits for it. */
export function depositSearchHeld(state: TrackingState): boolean {
  return !state.depositSearched && (state.depositSearchRetry ?? null) !== null;
}

export const initialTrackingState: TrackingState = {
  legs: {},
  hashes: {},
  depositSearched: false,
  depositFound: false,
  depositSearchRetry: null,
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
  /** `ambiguous`: what it found but could not attribute (ADR 0009), kept for the expiry to say so. */
  | { type: 'DepositSearched'; found: boolean; ambiguous?: readonly { chainId: number; txHash: string }[] }
  /** A deposit search step failed at `at`: retried with backoff, given up after DEPOSIT_SEARCH_MAX_FAILURES. */
  | { type: 'DepositSearchFailed'; at: number };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Whether a value read back from a checkpoint is a TrackingState this build can use (an earlier build wrote none; a
 * damaged one is ignored: the attempt is then paced from scratch, as before).
 */
export function isTrackingState(value: unknown): value is TrackingState {
  if (!isObject(value) || !isObject(value.legs) || !isObject(value.hashes)) return false;
  const legsOk = Object.values(value.legs).every(
    (l) =>
      isObject(l) &&
      isTime(l.nextPollAt) &&
      isTime(l.delayMs) &&
      (l.lastPollAt === null || isTime(l.lastPollAt)) &&
      (l.failureSince === null || isTime(l.failureSince)),
  );
  const hashesOk = Object.values(value.hashes).every(
    (h) => isObject(h) && isTime(h.firstTriedAt) && isTime(h.nextReadAt) && isTime(h.delayMs),
  );
  const retry = value.depositSearchRetry;
  const retryOk =
    retry === undefined ||
    retry === null ||
    (isObject(retry) && isTime(retry.failures) && isTime(retry.nextAt));
  return (
    legsOk &&
    hashesOk &&
    retryOk &&
    (value.ambiguousSources === undefined ||
      (Array.isArray(value.ambiguousSources) &&
        value.ambiguousSources.every(
          (a) => isObject(a) && isTime(a.chainId) && typeof a.txHash === 'string',
        ))) &&
    typeof value.depositSearched === 'boolean' &&
    typeof value.depositFound === 'boolean'
  );
}

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
      return {
        ...state,
        depositSearched: true,
        depositFound: state.depositFound || event.found,
        depositSearchRetry: null,
        ...((event.ambiguous ?? []).length > 0 ? { ambiguousSources: [...event.ambiguous!] } : {}),
      };
    case 'DepositSearchFailed': {
      if (state.depositSearched) return state;
      const failures = (state.depositSearchRetry?.failures ?? 0) + 1;
      if (failures >= DEPOSIT_SEARCH_MAX_FAILURES)
        return { ...state, depositSearched: true, depositSearchRetry: null };
      const delay = Math.min(
        DEPOSIT_SEARCH_BACKOFF_MIN_MS * 2 ** (failures - 1),
        DEPOSIT_SEARCH_BACKOFF_MAX_MS,
      );
      return { ...state, depositSearchRetry: { failures, nextAt: event.at + delay } };
    }
    default:
      // Kept in memory only, never stored: still, an event it does not know changes nothing.
      return state;
  }
}
