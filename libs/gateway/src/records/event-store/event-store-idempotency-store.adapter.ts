import {
  type BeginRequest,
  type IdempotencyCommand,
  idempotencyDecider,
  type IdempotencyOutcome,
  idempotencyStreamId,
} from '@svc/domain';
import { type EventStore, handleCommand, TooManyConcurrentAppendsError } from '@svc/event-store';
import { decidedOutcome } from '../../idempotency/decided-outcome';
import { type IdempotencyStore, type SettleRequest } from '../../idempotency/idempotency-store.port';

/** Re-decisions of a begin on concurrent appends before answering "in progress" (five tries in all). */
const BEGIN_RETRIES = 4;

/** What IdempotencyLedger.keyDigest makes: a sha256 in lowercase hex. */
const KEY_DIGEST = /^[0-9a-f]{64}$/;

/**
 * Idempotency-Keys as streams, `idempotency-<partnerId>-<keyDigest>` with maxAge = the retention, for the stores
 * that drop whole streams (EventStoreDB scavenges them) or live in memory. Appends name the revision they read, so
 * of concurrent first begins one appends and the others decide again on what it appended.
 *
 * Still one stream (and, on EventStoreDB, one metadata write) per key, unlike the nonces' buckets: a key is read by
 * key for IDEMPOTENCY_RETENTION_HOURS (24 h) and goes through several steps (accepted, completed or released, a lease
 * taken over), each decided on the key's state at the revision read, so its record needs a stream of its own for the
 * expected revision to guard; a bucket would put every key of a partner and day behind one revision, or need the
 * lease rules re-judged in the fold. Only POSTs carry a key, and each creates one stream.
 *
 * The id is not ambiguous (security review L3): the digest is exactly 64 hex digits, so the stream id ends with it
 * and the partner id is everything between `idempotency-` and the last 65 characters, whatever '-' it holds
 * (partner `a` with a digest `b-…` cannot exist). Hashing the partner id as the nonce buckets do would rename every
 * key in flight at the upgrade, and a retried POST within the retention would run again. The digest's form is
 * checked here, so nothing else can reach the store.
 */
export class EventStoreIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly store: EventStore,
    private readonly options: { retentionSeconds: number },
  ) {}

  async begin(partnerId: string, keyDigest: string, command: BeginRequest): Promise<IdempotencyOutcome> {
    try {
      const decision = await this.run(partnerId, keyDigest, command, `begin:${command.data.requestId}`, {
        maxRetries: BEGIN_RETRIES,
      });
      return decidedOutcome(command, decision);
    } catch (err) {
      if (err instanceof TooManyConcurrentAppendsError) return { kind: 'in_progress', retryAfterSeconds: 1 };
      throw err;
    }
  }

  async settle(partnerId: string, keyDigest: string, command: SettleRequest): Promise<void> {
    const step = command.type === 'CompleteRequest' ? 'complete' : 'release';
    await this.run(partnerId, keyDigest, command, `${step}:${command.data.requestId}`);
  }

  /** Each step is recorded at most once per run; the key's whole record expires after the retention. */
  private run(
    partnerId: string,
    keyDigest: string,
    command: IdempotencyCommand,
    stepId: string,
    options: { maxRetries?: number } = {},
  ) {
    if (!KEY_DIGEST.test(keyDigest))
      throw new RangeError('an Idempotency-Key is stored by its sha256 in lowercase hex (64 digits)');
    return handleCommand(this.store, idempotencyStreamId(partnerId, keyDigest), idempotencyDecider, command, {
      stepId,
      once: true,
      ...options,
      maxAgeSeconds: this.options.retentionSeconds,
      expiredHistory: 'start_over',
    });
  }
}
