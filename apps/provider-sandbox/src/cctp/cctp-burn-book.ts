import { type Hex } from 'viem';
import { type CctpBurnMessage } from './cctp-message';

/**
 * One CCTP burn the sandbox finalizer indexed (a `MessageSent` of the sandbox MessageTransmitterV2). `pending` until
 * minted; `minted` once a `MessageReceived` for its nonce is in a mint transaction; `failed` when its mint reverted.
 */
export interface CctpBurn {
  /** `<chainId>:<txHash>:<logIndex>` of the MessageSent log. */
  id: string;
  sourceChainId: number;
  sourceTxHash: Hex;
  sourceLogIndex: number;
  destinationChainId: number;
  /** The message as emitted (empty nonce, finality and fee). */
  sentMessage: Hex;
  decoded: CctpBurnMessage;
  /** The nonce the sandbox attester gives it; the indexer reports the empty nonce until the attestation is done. */
  nonce: Hex;
  attestation?: { message: Hex; signature: Hex; feeExecuted: bigint };
  status: 'pending' | 'minted' | 'failed';
  mintTxHash?: Hex;
  failReason?: string;
  indexedAt: number;
}

/** The CCTP burns seen on the sandbox chains, answered by the Across indexer's status endpoint. */
export class CctpBurnBook {
  private readonly byId = new Map<string, CctpBurn>();

  /** Adds a burn unless its log was already indexed; returns whether it was new. */
  add(burn: CctpBurn): boolean {
    if (this.byId.has(burn.id)) return false;
    this.byId.set(burn.id, burn);
    return true;
  }

  /** The burns of one source transaction, in log order (the indexer orders its MessageSent rows by id). */
  byTx(txHash: string): CctpBurn[] {
    const wanted = txHash.toLowerCase();
    return [...this.byId.values()]
      .filter((b) => b.sourceTxHash.toLowerCase() === wanted)
      .sort((a, b) => a.sourceLogIndex - b.sourceLogIndex);
  }

  all(): CctpBurn[] {
    return [...this.byId.values()];
  }
}
