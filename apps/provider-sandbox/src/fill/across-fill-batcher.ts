import { type Address, type Hex } from 'viem';
import { type AcrossRelayFill } from './across-relay-fills';
import { type TokenSender } from './token-sender';

/** The relayer's bundle size: MultiCallerClient chunks multicalls at 50 calls (across-protocol/relayer). */
export const ACROSS_MAX_FILLS_PER_MULTICALL = 50;

/** How long a fill waits for others by default: the fills of deposits indexed in the same poll come due together. */
export const ACROSS_FILL_BATCH_WINDOW_MS = 50;

interface Queued extends AcrossRelayFill {
  onSent?(hash: Hex): void;
  resolve(hash: Hex): void;
  reject(error: unknown): void;
}

/**
 * Gathers the Across fills that come due together on one destination chain into one `SpokePool.multicall`, as the
 * reference relayer does: every fill it decides on in one loop is enqueued, then executed per chain in bundles of up
 * to 50 (across-protocol/relayer src/relayer/Relayer.ts `checkForUnfilledDepositsAndFill` → `executeFills`;
 * src/clients/MultiCallerClient.ts `buildMultiCallBundles`). A fill waits `windowMs` for others (deposits indexed in
 * the same poll always share a bundle; the `batchFillsMs` fault widens the window so deposits made seconds apart
 * do too).
 */
export class AcrossFillBatcher {
  private readonly queues = new Map<number, { fills: Queued[]; timer: NodeJS.Timeout }>();

  constructor(
    private readonly deps: {
      sender: TokenSender;
      /** The SpokePool on a destination chain. */
      pool(chainId: number): Address;
      windowMs(): number;
    },
  ) {}

  /** Resolves with the fill transaction's hash once mined (the bundle's, shared with the other fills in it). */
  fill(fill: AcrossRelayFill, onSent?: (hash: Hex) => void): Promise<Hex> {
    const chainId = fill.delivery.chainId;
    return new Promise<Hex>((resolve, reject) => {
      let queue = this.queues.get(chainId);
      if (queue === undefined) {
        const timer = setTimeout(() => this.flush(chainId), this.deps.windowMs());
        queue = { fills: [], timer };
        this.queues.set(chainId, queue);
      }
      queue.fills.push({ ...fill, ...(onSent ? { onSent } : {}), resolve, reject });
    });
  }

  /** Sends what is queued now instead of waiting out the window (the sandbox stopping). */
  flushAll(): void {
    for (const chainId of [...this.queues.keys()]) this.flush(chainId);
  }

  private flush(chainId: number): void {
    const queue = this.queues.get(chainId);
    if (queue === undefined) return;
    clearTimeout(queue.timer);
    this.queues.delete(chainId);
    for (let at = 0; at < queue.fills.length; at += ACROSS_MAX_FILLS_PER_MULTICALL) {
      const bundle = queue.fills.slice(at, at + ACROSS_MAX_FILLS_PER_MULTICALL);
      this.deps.sender
        .fillAcross({
          chainId,
          pool: this.deps.pool(chainId),
          fills: bundle,
          onSent: (hash) => bundle.forEach((f) => f.onSent?.(hash)),
        })
        .then(
          (hash) => bundle.forEach((f) => f.resolve(hash)),
          (error: unknown) => bundle.forEach((f) => f.reject(error)),
        );
    }
  }
}
