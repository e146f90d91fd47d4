import { type Hex, hexToBigInt, hexToNumber, size, slice } from 'viem';

/**
 * A CCTP message header as the MessageTransmitter formats it, copied from circlefin/evm-cctp-contracts @ 4061786a
 * (2025-10-01): V1 src/messages/Message.sol (version 0 on chain; nonce uint64 at 12, sender at 20, body at 116) and
 * V2 src/messages/v2/MessageV2.sol (version 1; nonce bytes32 at 12, sender at 44, minFinalityThreshold at 140,
 * finalityThresholdExecuted at 144, body at 148). A V2 message as sent carries an empty nonce (bytes32(0)): Circle's
 * attestation service assigns it off chain (MessageV2._formatMessageForRelay EMPTY_NONCE).
 */
export interface CctpMessageHeader {
  /** 1 or 2: CCTP's version, not the message's `version` field (0 and 1 on chain). */
  cctpVersion: 1 | 2;
  sourceDomain: number;
  destinationDomain: number;
  /** V1: decimal uint64; V2: bytes32 hex, lowercase. */
  nonce: string;
  /** The source TokenMessenger, bytes32 hex, lowercase. */
  sender: Hex;
  recipient: Hex;
  destinationCaller: Hex;
  body: Hex;
}

/**
 * A burn message body, as the TokenMessenger formats it: V1 src/messages/BurnMessage.sol (132 bytes: version,
 * burnToken, mintRecipient, amount, messageSender) and V2 src/messages/v2/BurnMessageV2.sol (then maxFee at 132,
 * feeExecuted at 164, expirationBlock at 196, hookData from 228). feeExecuted and expirationBlock are 0 as sent and
 * set by the attestation service. bytes32 fields as lowercase hex.
 */
export interface CctpBurnBody {
  version: number;
  burnToken: Hex;
  mintRecipient: Hex;
  amount: bigint;
  messageSender: Hex;
  /** V2 only (null in V1). */
  maxFee: bigint | null;
  feeExecuted: bigint | null;
  expirationBlock: bigint | null;
  hookData: Hex | null;
}

const V1_HEADER = 116;
const V2_HEADER = 148;
const V1_BURN = 132;
const V2_BURN_FIXED = 228;

const lower = (value: Hex): Hex => value.toLowerCase() as Hex;

/** A MessageSent's `message` bytes, read by its version field (0: V1, 1: V2); null when it is neither. */
export function decodeCctpMessage(message: Hex): CctpMessageHeader | null {
  const length = size(message);
  if (length < V1_HEADER) return null;
  const version = hexToNumber(slice(message, 0, 4));
  const common = {
    sourceDomain: hexToNumber(slice(message, 4, 8)),
    destinationDomain: hexToNumber(slice(message, 8, 12)),
  };
  if (version === 0) {
    return {
      cctpVersion: 1,
      ...common,
      nonce: hexToBigInt(slice(message, 12, 20)).toString(10),
      sender: lower(slice(message, 20, 52)),
      recipient: lower(slice(message, 52, 84)),
      destinationCaller: lower(slice(message, 84, 116)),
      body: length === V1_HEADER ? '0x' : lower(slice(message, V1_HEADER)),
    };
  }
  if (version === 1 && length >= V2_HEADER) {
    return {
      cctpVersion: 2,
      ...common,
      nonce: lower(slice(message, 12, 44)),
      sender: lower(slice(message, 44, 76)),
      recipient: lower(slice(message, 76, 108)),
      destinationCaller: lower(slice(message, 108, 140)),
      body: length === V2_HEADER ? '0x' : lower(slice(message, V2_HEADER)),
    };
  }
  return null;
}

/**
 * A burn message body of the given CCTP version; null when its length is not the layout's (V1: exactly 132 bytes, as
 * BurnMessage._validateBurnMessageFormat requires; V2: at least 228, BurnMessageV2._validateBurnMessageFormat).
 */
export function decodeCctpBurnBody(body: Hex, cctpVersion: 1 | 2): CctpBurnBody | null {
  const length = size(body);
  if (cctpVersion === 1 ? length !== V1_BURN : length < V2_BURN_FIXED) return null;
  const v1 = {
    version: hexToNumber(slice(body, 0, 4)),
    burnToken: lower(slice(body, 4, 36)),
    mintRecipient: lower(slice(body, 36, 68)),
    amount: hexToBigInt(slice(body, 68, 100)),
    messageSender: lower(slice(body, 100, 132)),
  };
  if (cctpVersion === 1) {
    return { ...v1, maxFee: null, feeExecuted: null, expirationBlock: null, hookData: null };
  }
  return {
    ...v1,
    maxFee: hexToBigInt(slice(body, 132, 164)),
    feeExecuted: hexToBigInt(slice(body, 164, 196)),
    expirationBlock: hexToBigInt(slice(body, 196, 228)),
    hookData: length === V2_BURN_FIXED ? '0x' : lower(slice(body, V2_BURN_FIXED)),
  };
}
