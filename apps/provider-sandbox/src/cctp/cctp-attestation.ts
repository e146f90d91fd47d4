import { keccak256, type Hex } from 'viem';
import { sign } from 'viem/accounts';
import {
  CCTP_FINALITY_FAST,
  CCTP_FINALITY_FINALIZED,
  attestedCctpMessage,
  type CctpBurnMessage,
} from './cctp-message';
import { cctpFastFee } from './cctp-route';

/**
 * The sandbox's stand-in for Circle's attestation service (Iris): it fills in what the emitted message leaves empty
 * and signs keccak256 of the result with the one attester key the sandbox MessageTransmitterV2 trusts (the sandbox
 * deployer's, anvil account 9: public). Circle's attestation is a threshold of such signatures
 * (circlefin/evm-cctp-contracts src/v2/BaseMessageTransmitter.sol `_verifyAttestationSignatures`).
 *
 * Fast burns (minFinalityThreshold ≤ 1000) are attested at 1000 and charged the fast fee, capped by the burn's maxFee;
 * standard ones at 2000, free (frontend api/_bridges/cctp/utils/fees.ts: "0 bps for standard transfers").
 */
export async function attestCctpMessage(params: {
  sent: Hex;
  decoded: CctpBurnMessage;
  nonce: Hex;
  attesterKey: Hex;
}): Promise<{ message: Hex; signature: Hex; feeExecuted: bigint }> {
  const fast = params.decoded.minFinalityThreshold <= CCTP_FINALITY_FAST;
  const { amount, maxFee } = params.decoded.body;
  const feeExecuted = fast ? min(cctpFastFee(amount), maxFee) : 0n;
  const message = attestedCctpMessage(params.sent, {
    nonce: params.nonce,
    finalityThresholdExecuted: fast ? CCTP_FINALITY_FAST : CCTP_FINALITY_FINALIZED,
    feeExecuted,
  });
  const signature = await sign({ hash: keccak256(message), privateKey: params.attesterKey, to: 'hex' });
  return { message, signature, feeExecuted };
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
