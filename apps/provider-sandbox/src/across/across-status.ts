import { type TransferStatus } from '../ledger/transfer-record';

export type AcrossStatus = 'pending' | 'filled' | 'refunded';

/**
 * The indexer's status (reference §2.4). A failed sandbox fill leaves the deposit unfilled, which Across
 * reports as `pending` until it expires.
 */
export function acrossStatus(status: TransferStatus): AcrossStatus {
  switch (status) {
    case 'pending':
    case 'delayed':
    case 'filling':
    case 'refunding':
    case 'failed':
      return 'pending';
    case 'filled':
      return 'filled';
    case 'refunded':
      return 'refunded';
  }
}
