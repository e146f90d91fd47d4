import { type TransferBook } from '../ledger/transfer-book';
import { type TransferRecord } from '../ledger/transfer-record';
import { type SettlementPlan } from '../scenarios/settlement-plan';
import { type TokenSender } from './token-sender';

type Plan<K extends SettlementPlan['kind']> = Extract<SettlementPlan, { kind: K }>;

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
      fillDelayMs: () => number;
      /** How long a failure-then-refund reports failure, and a delayed fill reports delayed. */
      failureHoldMs: () => number;
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
    const fillTxHash = await this.deps.sender.send({
      provider: transfer.provider,
      ...plan.transfer,
      onSent: (hash) => this.update(transfer, { status: 'filling', fillTxHash: hash }),
    });
    this.update(transfer, { status: 'filled', fillTxHash });
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
