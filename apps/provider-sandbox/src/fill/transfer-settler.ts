import { type TransferBook } from '../ledger/transfer-book';
import { type TransferRecord } from '../ledger/transfer-record';
import { type TokenSender } from './token-sender';

/** Why a refunded transfer was not filled, in Relay's failReason vocabulary. */
const REFUND_REASON = 'SOLVER_CAPACITY_EXCEEDED';

/**
 * Settles indexed deposits the way a solver would: after the fill delay, deliver the output on the
 * destination chain, or (refund) return the input on the source chain, from the provider's filler account.
 */
export class TransferSettler {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly deps: {
      transfers: TransferBook;
      sender: TokenSender;
      fillDelayMs: () => number;
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
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }

  private async settle(transfer: TransferRecord): Promise<void> {
    const { transfers, sender, now } = this.deps;
    const { id, provider } = transfer;
    try {
      if (transfer.refund) {
        transfers.update(id, { failReason: transfer.failReason ?? REFUND_REASON }, now());
        const refundTxHash = await sender.send({
          provider,
          chainId: transfer.sourceChainId,
          token: transfer.inputToken,
          to: transfer.depositor,
          amount: transfer.inputAmount,
          onSent: (hash) => transfers.update(id, { status: 'refunding', refundTxHash: hash }, now()),
        });
        transfers.update(id, { status: 'refunded', refundTxHash }, now());
      } else {
        const fillTxHash = await sender.send({
          provider,
          chainId: transfer.destinationChainId,
          token: transfer.outputToken,
          to: transfer.recipient,
          amount: transfer.outputAmount,
          onSent: (hash) => transfers.update(id, { status: 'filling', fillTxHash: hash }, now()),
        });
        transfers.update(id, { status: 'filled', fillTxHash }, now());
      }
    } catch (error) {
      transfers.update(id, { status: 'failed', failReason: 'UNKNOWN' }, now());
      this.deps.onError(error, transfer);
    }
  }
}
