import { type TransferStatus } from '../ledger/transfer-record';

/** The explorer's `clientStatus` and detailed `status` (reference §3.4); only COMPLETED and REFUNDED are terminal. */
export function mayanClientStatus(status: TransferStatus): {
  clientStatus: 'INPROGRESS' | 'COMPLETED' | 'REFUNDED';
  status: string;
} {
  switch (status) {
    case 'pending':
    case 'filling':
    case 'refunding':
    case 'failed':
      return { clientStatus: 'INPROGRESS', status: 'ORDER_SUBMITTED' };
    case 'filled':
      return { clientStatus: 'COMPLETED', status: 'ORDER_SETTLED' };
    case 'refunded':
      return { clientStatus: 'REFUNDED', status: 'REFUNDED_ON_EVM' };
  }
}
