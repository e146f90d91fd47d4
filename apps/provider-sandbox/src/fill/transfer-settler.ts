import { type Hex } from 'viem';
import { type TransferBook } from '../ledger/transfer-book';
import { type TransferRecord } from '../ledger/transfer-record';
import { type SettlementPlan } from '../scenarios/settlement-plan';
import { isNative } from '../tokens/token-directory';
import { type AcrossFillBatcher } from './across-fill-batcher';
import { type TokenSender } from './token-sender';

type Plan<K extends SettlementPlan['kind']> = Extract<SettlementPlan, { kind: K }>;

/** How often a refund waiting for its chain time reads the chain. */
const CHAIN_TIME_POLL_MS = 250;

/**
 * Settles indexed deposits the way a solver would: after the fill delay, carry out the deposit's settlement plan
 * (deliver on the destination chain, or return the input on the source chain, from the provider's filler
 * account), holding a failure or delay status for the failure hold first when the plan's scenario asks for it.
 */
export class TransferSettler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();
  /** Wakes the holds in progress when the sandbox stops, so stopping never waits out a hold. */
  private readonly holds = new Set<() => void>();
  private stopped = false;

  constructor(
    private readonly deps: {
      transfers: TransferBook;
      sender: TokenSender;
      /** Across fills go through the destination SpokePool, batched (S13); without it they are plain transfers. */
      acrossFills?: AcrossFillBatcher;
      fillDelayMs: () => number;
      /** How long a failure-then-refund reports failure, and a delayed fill reports delayed. */
      failureHoldMs: () => number;
      /** A chain's own time, unix seconds (its latest block): what a refund `notBefore` waits for (S14). */
      chainTime?: (chainId: number) => Promise<number>;
      now: () => number;
      onError(error: unknown, transfer: TransferRecord): void;
    },
  ) {}

  /** Records the transfer and schedules its settlement; a deposit indexed twice is settled once. */
  accept(transfer: TransferRecord): void {
    if (!this.deps.transfers.add(transfer)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      const run = this.settle(transfer).finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }, this.deps.fillDelayMs());
    this.timers.add(timer);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const wake of this.holds) wake();
    this.deps.acrossFills?.flushAll();
    await Promise.allSettled([...this.inFlight]);
  }

  private async settle(transfer: TransferRecord): Promise<void> {
    const { plan } = transfer;
    try {
      switch (plan.kind) {
        case 'fail':
          this.update(transfer, {
            status: 'failed',
            failReason: plan.failReason,
            refundFailReason: plan.refundFailReason,
          });
          return;
        case 'refund':
          return await this.refund(transfer, plan);
        case 'fill':
          return await this.fill(transfer, plan);
      }
    } catch (error) {
      this.update(transfer, { status: 'failed', failReason: 'UNKNOWN' });
      this.deps.onError(error, transfer);
    }
  }

  private async refund(transfer: TransferRecord, plan: Plan<'refund'>): Promise<void> {
    const failReason = transfer.failReason ?? plan.failReason;
    if (plan.holdAs) {
      this.update(transfer, { status: plan.holdAs, failReason });
      if (!(await this.hold())) return;
    } else {
      this.update(transfer, { failReason });
    }
    if (plan.notBefore && !(await this.chainTimeReached(plan.notBefore))) return;
    const refundTxHash = await this.deps.sender.send({
      provider: transfer.provider,
      ...plan.transfer,
      onSent: (hash) => this.update(transfer, { status: 'refunding', refundTxHash: hash }),
    });
    this.update(transfer, { status: 'refunded', refundTxHash });
  }

  private async fill(transfer: TransferRecord, plan: Plan<'fill'>): Promise<void> {
    if (plan.holdAs) {
      this.update(transfer, { status: plan.holdAs });
      if (!(await this.hold())) return;
    }
    // Its own transaction, before the fill: the recipient's transfer stays alone in the reported fill.
    if (plan.appFee) await this.deps.sender.send({ provider: transfer.provider, ...plan.appFee });
    const onSent = (hash: Hex) => this.update(transfer, { status: 'filling', fillTxHash: hash });
    const { acrossFills } = this.deps;
    // The relayer's way: fillRelay through the SpokePool, in a multicall with the fills due with it. A fill meant to
    // revert and a native payout stay plain transfers (the sandbox WETH cannot unwrap).
    const throughPool =
      acrossFills !== undefined &&
      transfer.provider === 'across' &&
      !plan.transfer.reverts &&
      !isNative(plan.transfer.token);
    const fillTxHash = throughPool
      ? await acrossFills.fill({ transfer, delivery: plan.transfer }, onSent)
      : await this.deps.sender.send({ provider: transfer.provider, ...plan.transfer, onSent });
    this.update(transfer, { status: 'filled', fillTxHash });
  }

  /**
   * Waits until the chain's own time reaches `at` (a test moves it by anvil time travel; the wall clock never does it
   * alone within a test); false when the sandbox stopped meanwhile.
   */
  private async chainTimeReached({ chainId, at }: { chainId: number; at: number }): Promise<boolean> {
    const { chainTime } = this.deps;
    if (!chainTime) return !this.stopped;
    while (!this.stopped) {
      if ((await chainTime(chainId).catch(() => 0)) >= at) return true;
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.holds.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, CHAIN_TIME_POLL_MS);
        this.holds.add(wake);
      });
    }
    return false;
  }

  /** Waits the failure hold; false when the sandbox stopped meanwhile, and the settlement goes no further. */
  private hold(): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.holds.delete(wake);
        resolve(!this.stopped);
      };
      const timer = setTimeout(wake, this.deps.failureHoldMs());
      this.holds.add(wake);
    });
  }

  private update(transfer: TransferRecord, patch: Parameters<TransferBook['update']>[1]): void {
    this.deps.transfers.update(transfer.id, patch, this.deps.now());
  }
}
