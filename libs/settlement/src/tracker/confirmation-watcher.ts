import { type ChainRegistry } from '@svc/chains';
import { isTerminalAttemptStatus } from '@svc/contract';
import { decideTxFinality, type LegFinality } from '@svc/domain';
import { type EventStore } from '@svc/event-store';
import { errorMessage } from '@svc/leases';
import { type Clock } from '@svc/platform';
import { getBlock } from 'viem/actions';
import { decideAndAppend } from '../attempt-store/attempt-stream';
import { readBlocksOnQuorum } from '../observe/read-blocks-on-quorum';
import {
  type Head,
  headChange,
  legsDue,
  mayDecide,
  type NodeBlocks,
  txViewsAt,
  type WaitingLeg,
  waitingLegs,
} from './confirmation-schedule';
import { txFinality } from './leg-finality';

/** The chains' heads are looked at this often while any leg waits (a quarter of the sandbox's one-second blocks). */
export const DEFAULT_HEAD_POLL_MS = 250;

export interface ConfirmationWatcherDeps {
  store: EventStore;
  chains: ChainRegistry;
  clock: Clock;
  /** Whether this process holds the attempt's shard (ADR 0003): the legs of the others are not read. */
  owns(attemptId: string): boolean;
  /**
   * Takes the attempt for a check: false when a run of it is under way (the run decides against the same stream; the
   * leg is then checked at the next look). `release` gives it back.
   */
  claim(attemptId: string): boolean;
  release(attemptId: string): void;
  warn(entry: Record<string, unknown>): void;
}

/**
 * Block-driven confirmation (issue 24 item 3 residue; ADR 0008 "Confirmation is block-driven"). One per tracker
 * process, over the attempts it holds: it keeps the legs whose fill awaits confirmations (bounded by the attempts in
 * flight: an attempt's legs are replaced after each of its runs and dropped when it ends), looks at each of their
 * chains' head once per look (one read per chain, none while nothing waits), and on a new head checks exactly the legs
 * whose depth it reaches, or every leg on a chain whose head reorganised (legsDue). The check reads each node of the
 * chain once per head (its final block) and once per height legs were seen at (the block's hash and transactions),
 * shared by every leg at that height, then records each leg's outcome through the attempt decider (ConfirmLeg): final,
 * settled; gone from its block, LegFillReorged and back to tracking. A leg that is still awaiting on the quorum, or
 * undecided, is checked again at the next head.
 */
export class ConfirmationWatcher {
  private readonly waiting = new Map<string, WaitingLeg[]>();
  /** Attempts to check at the next look even if no head moved: new legs, or a check that could not run. */
  private readonly retry = new Set<string>();
  private readonly heads = new Map<number, Head>();
  private readonly finalBlocks = new Map<number, bigint>();
  private polling: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly deps: ConfirmationWatcherDeps,
    private readonly options: { headPollMs: number; concurrency: number },
  ) {}

  /** The attempt's legs waiting for confirmations now (after a run, from its record); none: it is dropped. */
  track(attemptId: string, legs: WaitingLeg[]): void {
    if (legs.length === 0) {
      this.forget(attemptId);
      return;
    }
    const key = (l: WaitingLeg) => `${l.sliceId}:${l.fill.txHash}:${l.fill.blockHash}`;
    const before = (this.waiting.get(attemptId) ?? []).map(key).join();
    if (before !== legs.map(key).join()) this.retry.add(attemptId);
    this.waiting.set(attemptId, legs);
  }

  forget(attemptId: string): void {
    this.waiting.delete(attemptId);
    this.retry.delete(attemptId);
  }

  /** How many attempts have legs waiting (memory stays bounded by the attempts in flight). */
  get size(): number {
    return this.waiting.size;
  }

  /** Looks every headPollMs, one look at a time, until stop(). */
  start(): void {
    this.stopped = false;
    const next = () => {
      if (this.stopped) return;
      this.timer = setTimeout(() => void this.poll().finally(next), this.options.headPollMs);
      this.timer.unref?.();
    };
    next();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.polling;
  }

  /** One look (also callable directly, e.g. by the tracker's tick and by tests); joins a look under way. */
  poll(): Promise<void> {
    this.polling ??= this.look()
      .catch((err: unknown) => this.deps.warn({ msg: 'confirmation look failed', error: errorMessage(err) }))
      .finally(() => (this.polling = null));
    return this.polling;
  }

  private async look(): Promise<void> {
    const legs = [...this.waiting].flatMap(([attemptId, of]) => (this.deps.owns(attemptId) ? of : []));
    const chainIds = new Set(legs.flatMap((l) => [l.fill.chainId, ...(l.source ? [l.source.chainId] : [])]));
    for (const chainId of [...this.heads.keys()]) {
      if (chainIds.has(chainId)) continue;
      this.heads.delete(chainId);
      this.finalBlocks.delete(chainId);
    }
    if (legs.length === 0) return;
    const moved = new Set<number>();
    const reorged = new Set<number>();
    await Promise.all(
      [...chainIds].map(async (chainId) => {
        try {
          const change = await this.readHead(chainId);
          if (change === 'same') return;
          moved.add(chainId);
          if (change === 'reorged') reorged.add(chainId);
        } catch (err) {
          this.deps.warn({
            msg: 'reading a chain head failed; looked at again',
            chainId,
            error: errorMessage(err),
          });
        }
      }),
    );
    const retry = new Set(this.retry);
    this.retry.clear();
    const looked = legs.filter(
      (l) =>
        retry.has(l.attemptId) ||
        moved.has(l.fill.chainId) ||
        (l.source !== null && moved.has(l.source.chainId)),
    );
    const due = legsDue(looked, { finalBlocks: this.finalBlocks, reorged });
    if (due.length > 0) await this.check(due);
  }

  /** The chain's head on its first node, compared with the last one; the chain's final block under its policy. */
  private async readHead(chainId: number): Promise<'same' | 'advanced' | 'reorged'> {
    const node = this.deps.chains.client(chainId);
    const block = await getBlock(node, { blockTag: 'latest' });
    const head: Head = { number: block.number, hash: block.hash, parentHash: block.parentHash };
    let change = headChange(this.heads.get(chainId) ?? null, head);
    if (change.kind === 'same') return 'same';
    if (change.kind === 'gap') {
      const then = await getBlock(node, { blockNumber: change.checkAt });
      change =
        then.hash.toLowerCase() === change.expectHash.toLowerCase()
          ? { kind: 'advanced' }
          : { kind: 'reorged' };
    }
    const policy = this.deps.chains.confirmationPolicy(chainId);
    const finalBlock =
      'tag' in policy
        ? (await getBlock(node, { blockTag: policy.tag })).number
        : head.number - BigInt(policy.blocks);
    this.heads.set(chainId, head);
    this.finalBlocks.set(chainId, finalBlock);
    return change.kind === 'reorged' ? 'reorged' : 'advanced';
  }

  /** Reads the due legs' blocks once per chain, node and height, then decides each leg, attempts in parallel. */
  private async check(due: WaitingLeg[]): Promise<void> {
    const heights = new Map<number, Set<bigint>>();
    const need = (chainId: number, height: bigint) =>
      heights.set(chainId, (heights.get(chainId) ?? new Set()).add(height));
    for (const { fill, source } of due) {
      need(fill.chainId, fill.blockNumber);
      if (source !== null && source.blockNumber !== null) need(source.chainId, source.blockNumber);
    }
    const reads = new Map(
      await Promise.all(
        [...heights].map(
          async ([chainId, at]) =>
            [chainId, await readBlocksOnQuorum(this.deps.chains, chainId, [...at])] as const,
        ),
      ),
    );
    const byAttempt = new Map<string, WaitingLeg[]>();
    for (const leg of due) byAttempt.set(leg.attemptId, [...(byAttempt.get(leg.attemptId) ?? []), leg]);
    const queue = [...byAttempt];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        await this.checkAttempt(next[0], next[1], reads);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.options.concurrency) }, worker));
  }

  private async checkAttempt(
    attemptId: string,
    legs: WaitingLeg[],
    reads: ReadonlyMap<number, { nodes: NodeBlocks[]; quorum: number }>,
  ): Promise<void> {
    if (!this.deps.claim(attemptId)) {
      if (this.waiting.has(attemptId)) this.retry.add(attemptId);
      return;
    }
    try {
      for (const leg of legs) {
        const finality = await this.finality(leg, reads);
        if (!mayDecide(finality)) continue;
        const after = await decideAndAppend(this.deps.store, attemptId, `confirm:${leg.sliceId}`, {
          type: 'ConfirmLeg',
          data: { sliceId: leg.sliceId, finality, now: this.deps.clock.now() },
        });
        if (!this.waiting.has(attemptId)) return; // ended meanwhile
        if (after === null || isTerminalAttemptStatus(after.status)) {
          this.forget(attemptId);
          return;
        }
        const rest = waitingLegs(after, (chainId) => this.deps.chains.has(chainId));
        if (rest.length === 0) this.forget(attemptId);
        else this.waiting.set(attemptId, rest);
      }
    } catch (err) {
      if (this.waiting.has(attemptId)) this.retry.add(attemptId);
      this.deps.warn({
        msg: 'confirmation check failed; checked again',
        attemptId,
        error: errorMessage(err),
      });
    } finally {
      this.deps.release(attemptId);
    }
  }

  /** The leg's fill, and its source transaction, under the quorum rule, from the blocks read at their heights. */
  private async finality(
    leg: WaitingLeg,
    reads: ReadonlyMap<number, { nodes: NodeBlocks[]; quorum: number }>,
  ): Promise<LegFinality> {
    const at = reads.get(leg.fill.chainId)!;
    const fill = decideTxFinality(txViewsAt(at.nodes, leg.fill.txHash, leg.fill.blockNumber), at.quorum, {
      blockHash: leg.fill.blockHash,
    });
    const { source } = leg;
    if (source === null) return { fill, source: null };
    const { chainId, txHash, blockNumber } = source;
    if (blockNumber === null) {
      // A record of an earlier build does not say where its source was confirmed: its receipt is read (as before).
      return {
        fill,
        source: { chainId, txHash, finality: await txFinality(this.deps, chainId, txHash, null) },
      };
    }
    const sourceAt = reads.get(chainId)!;
    const finality = decideTxFinality(txViewsAt(sourceAt.nodes, txHash, blockNumber), sourceAt.quorum, {
      blockNumber: blockNumber.toString(),
    });
    return { fill, source: { chainId, txHash, finality } };
  }
}
