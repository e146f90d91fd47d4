import {
  concatHex,
  keccak256,
  encodeAbiParameters,
  padHex,
  sliceHex,
  hexToBigInt,
  hexToNumber,
  getAddress,
} from 'viem';
import { type Address, type Hex } from 'viem';

/** CCTP V2 message and burn-message versions: Circle's V2 contracts are deployed with 1 (V1 used 0). */
export const CCTP_MESSAGE_VERSION = 1;
export const CCTP_MESSAGE_BODY_VERSION = 1;

/**
 * circlefin/evm-cctp-contracts src/v2/FinalityThresholds.sol; the Swap API asks for 1000 ("fast", when it charges a
 * fee) or 2000 ("standard"): across-protocol/frontend api/_bridges/cctp/utils/constants.ts CCTP_FINALITY_THRESHOLDS.
 */
export const CCTP_FINALITY_FAST = 1000;
export const CCTP_FINALITY_FINALIZED = 2000;

/** Circle's domains of the sandbox chains (the same map as contracts/CctpDomains.sol). */
const DOMAINS: Readonly<Record<number, number>> = { 1: 0, 42161: 3, 8453: 6 };

export function cctpDomainOf(chainId: number): number | null {
  return DOMAINS[chainId] ?? null;
}

export function chainIdOfCctpDomain(domain: number): number | null {
  const found = Object.entries(DOMAINS).find(([, d]) => d === domain);
  return found ? Number(found[0]) : null;
}

/**
 * A `MessageSent(bytes)` message decoded by the MessageV2 layout (src/messages/v2/MessageV2.sol), with its
 * BurnMessageV2 body (src/messages/v2/BurnMessageV2.sol). Offsets in bytes.
 */
export interface CctpBurnMessage {
  version: number;
  sourceDomain: number;
  destinationDomain: number;
  nonce: Hex;
  sender: Hex;
  recipient: Hex;
  destinationCaller: Hex;
  minFinalityThreshold: number;
  finalityThresholdExecuted: number;
  body: {
    version: number;
    burnToken: Address;
    mintRecipient: Address;
    amount: bigint;
    messageSender: Address;
    maxFee: bigint;
    feeExecuted: bigint;
    expirationBlock: bigint;
    hookData: Hex;
  };
}

const MESSAGE_BODY_INDEX = 148;
const HOOK_DATA_INDEX = 228;

export class MalformedCctpMessageError extends Error {
  override readonly name = 'MalformedCctpMessageError' as const;
}

export function decodeCctpBurnMessage(message: Hex): CctpBurnMessage {
  const length = (message.length - 2) / 2;
  if (length < MESSAGE_BODY_INDEX + HOOK_DATA_INDEX) {
    throw new MalformedCctpMessageError(`a CCTP burn message is at least 376 bytes, got ${length}`);
  }
  const at = (start: number, size: number) => sliceHex(message, start, start + size);
  const body = sliceHex(message, MESSAGE_BODY_INDEX);
  const bodyAt = (start: number, size: number) => sliceHex(body, start, start + size);
  const address = (word: Hex) => getAddress(sliceHex(word, 12));
  return {
    version: hexToNumber(at(0, 4)),
    sourceDomain: hexToNumber(at(4, 4)),
    destinationDomain: hexToNumber(at(8, 4)),
    nonce: at(12, 32),
    sender: at(44, 32),
    recipient: at(76, 32),
    destinationCaller: at(108, 32),
    minFinalityThreshold: hexToNumber(at(140, 4)),
    finalityThresholdExecuted: hexToNumber(at(144, 4)),
    body: {
      version: hexToNumber(bodyAt(0, 4)),
      burnToken: address(bodyAt(4, 32)),
      mintRecipient: address(bodyAt(36, 32)),
      amount: hexToBigInt(bodyAt(68, 32)),
      messageSender: address(bodyAt(100, 32)),
      maxFee: hexToBigInt(bodyAt(132, 32)),
      feeExecuted: hexToBigInt(bodyAt(164, 32)),
      expirationBlock: hexToBigInt(bodyAt(196, 32)),
      hookData: tail(body, HOOK_DATA_INDEX),
    },
  };
}

/**
 * The message the attester signs for a sent one: the same bytes with the nonce, finalityThresholdExecuted and the
 * body's feeExecuted filled in, as Circle's attestation service returns it (the emitted message leaves them empty:
 * MessageV2 `_formatMessageForRelay` EMPTY_NONCE / EMPTY_FINALITY_THRESHOLD_EXECUTED, BurnMessageV2 EMPTY_FEE_EXECUTED).
 * expirationBlock stays 0 (no expiry).
 */
export function attestedCctpMessage(
  sent: Hex,
  fill: { nonce: Hex; finalityThresholdExecuted: number; feeExecuted: bigint },
): Hex {
  const body = MESSAGE_BODY_INDEX;
  return concatHex([
    sliceHex(sent, 0, 12),
    padHex(fill.nonce, { size: 32 }),
    sliceHex(sent, 44, 144),
    padHex(`0x${fill.finalityThresholdExecuted.toString(16)}`, { size: 4 }),
    sliceHex(sent, body, body + 164),
    padHex(`0x${fill.feeExecuted.toString(16)}`, { size: 32 }),
    tail(sent, body + 196),
  ]);
}

/**
 * The nonce the sandbox's attester gives a message: unique per MessageSent log. Circle's V2 nonces are bytes32 values
 * its attestation service assigns (the indexer reads them back as the attestation's `eventNonce`).
 */
export function cctpNonceOf(log: { sourceChainId: number; transactionHash: Hex; logIndex: number }): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'uint256' }, { type: 'bytes32' }, { type: 'uint256' }],
      [BigInt(log.sourceChainId), log.transactionHash, BigInt(log.logIndex)],
    ),
  );
}

/** The bytes from `start` on; empty at the end (viem's sliceHex refuses a start offset at the end). */
function tail(hex: Hex, start: number): Hex {
  return (hex.length - 2) / 2 <= start ? '0x' : sliceHex(hex, start);
}
