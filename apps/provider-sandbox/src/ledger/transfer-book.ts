import { type Hex } from 'viem';
import { type SandboxProvider } from '../pricing/sandbox-provider';
import {
  type AcrossTransfer,
  type MayanTransfer,
  type RelayTransfer,
  type TransferRecord,
} from './transfer-record';

type TransferPatch = Partial<
  Pick<TransferRecord, 'status' | 'fillTxHash' | 'refundTxHash' | 'failReason' | 'refundFailReason'>
>;

/** Deposits the watchers have indexed, and what the fillers did about them. */
export class TransferBook {
  private readonly byId = new Map<string, TransferRecord>();

  /** Adds a transfer unless its deposit event was already indexed; returns whether it was new. */
  add(transfer: TransferRecord): boolean {
    if (this.byId.has(transfer.id)) return false;
    this.byId.set(transfer.id, transfer);
    return true;
  }

  update(id: string, patch: TransferPatch, now: number): TransferRecord {
    const transfer = this.byId.get(id);
    if (!transfer) throw new Error(`unknown transfer ${id}`);
    Object.assign(transfer, patch, { updatedAt: now });
    return transfer;
  }

  get(id: string): TransferRecord | undefined {
    return this.byId.get(id);
  }

  relayByRequestId(requestId: string): RelayTransfer | undefined {
    const wanted = requestId.toLowerCase();
    return this.ofProvider('relay').find((t) => t.requestId.toLowerCase() === wanted);
  }

  /** Every Across deposit of one transaction, in log order: the indexer's `index` counts along this list. */
  acrossByDepositTx(txHash: string): AcrossTransfer[] {
    return this.ofProvider('across')
      .filter((t) => sameHash(t.sourceTxHash, txHash))
      .sort((a, b) => a.sourceLogIndex - b.sourceLogIndex);
  }

  acrossByDepositId(originChainId: number, depositId: number): AcrossTransfer | undefined {
    return this.ofProvider('across').find(
      (t) => t.sourceChainId === originChainId && t.depositId === depositId,
    );
  }

  /**
   * The swap with this order hash (the Swift order key), else the first order of the source transaction: with
   * several orders in one transaction, only the order key tells them apart.
   */
  mayanBySourceTx(hash: string): MayanTransfer | undefined {
    const orders = this.ofProvider('mayan');
    return (
      orders.find((t) => sameHash(t.orderKey, hash)) ??
      orders
        .filter((t) => sameHash(t.sourceTxHash, hash))
        .sort((a, b) => a.sourceLogIndex - b.sourceLogIndex)[0]
    );
  }

  ofProvider<P extends SandboxProvider>(provider: P): Extract<TransferRecord, { provider: P }>[] {
    return [...this.byId.values()].filter(
      (t): t is Extract<TransferRecord, { provider: P }> => t.provider === provider,
    );
  }
}

function sameHash(a: Hex, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
