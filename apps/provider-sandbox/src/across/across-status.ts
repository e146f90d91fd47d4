import { type TransferStatus } from '../ledger/transfer-record';

export type AcrossStatus = 'pending' | 'expired' | 'filled' | 'refunded';

/**
 * The indexer's status (reference §2.4). A failed sandbox fill leaves the deposit unfilled, which Across
 * reports as `pending` until it expires: `expired` once the destination chain is past the deposit's fillDeadline
 * and until its refund (docs.across.to /introduction/refunds: "The fillDeadline passes and the deposit status
 * changes to expired"; the indexer's RelayStatus `expired`, across-protocol/indexer RelayHashInfo.ts).
 */
export function acrossStatus(status: TransferStatus, pastFillDeadline = false): AcrossStatus {
  switch (status) {
    case 'pending':
    case 'delayed':
    case 'filling':
    case 'refunding':
    case 'failed':
      return pastFillDeadline ? 'expired' : 'pending';
    case 'filled':
      return 'filled';
    case 'refunded':
      return 'refunded';
  }
}
