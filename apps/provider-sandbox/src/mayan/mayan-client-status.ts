import { type TransferStatus } from '../ledger/transfer-record';

export type MayanClientStatus = 'INPROGRESS' | 'COMPLETED' | 'REFUNDED' | 'CANCELED';

/**
 * The explorer's `clientStatus` and detailed `status` (reference §3.4). COMPLETED, REFUNDED and CANCELED are
 * terminal; a cancelled order is a refund that mayan-finance/wormhole-sdk-route src/utils.ts
 * (MayanClientStatus.CANCELED) handles like REFUNDED. No provider source names the detailed status of a
 * cancelled order: `ORDER_CANCELED` is the sandbox's. A cancelled order is CANCELED from the cancel on, before its
 * refund transaction exists (the settlement's hold, `failed`), as on chain the cancel precedes the refund
 * (mayan-finance/swap-bridge src/MayanSwift.sol `cancelOrder`, then `refundOrder`; providers review N14).
 */
export function mayanClientStatus(
  status: TransferStatus,
  canceled: boolean,
): { clientStatus: MayanClientStatus; status: string } {
  switch (status) {
    case 'failed':
    case 'refunding':
      return canceled
        ? { clientStatus: 'CANCELED', status: 'ORDER_CANCELED' }
        : { clientStatus: 'INPROGRESS', status: 'ORDER_SUBMITTED' };
    case 'pending':
    case 'delayed':
    case 'filling':
      return { clientStatus: 'INPROGRESS', status: 'ORDER_SUBMITTED' };
    case 'filled':
      return { clientStatus: 'COMPLETED', status: 'ORDER_SETTLED' };
    case 'refunded':
      return canceled
        ? { clientStatus: 'CANCELED', status: 'ORDER_CANCELED' }
        : { clientStatus: 'REFUNDED', status: 'REFUNDED_ON_EVM' };
  }
}
