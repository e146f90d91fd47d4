import { parseAbi, toEventSelector } from 'viem';

/**
 * CCTP's events, copied from circlefin/evm-cctp-contracts @ 4061786a (2025-10-01):
 * - `DepositForBurn`: V2 src/v2/TokenMessengerV2.sol (no nonce: the attestation service assigns it), V1
 *   src/TokenMessenger.sol (the nonce the source MessageTransmitter reserved, indexed);
 * - `MessageSent(bytes message)`: src/MessageTransmitter.sol and src/v2/MessageTransmitterV2.sol (one signature, the
 *   message's version field tells them apart), emitted by `sendMessage` just before the TokenMessenger's
 *   `DepositForBurn`;
 * - `MessageReceived`: V1 src/MessageTransmitter.sol (uint64 nonce), V2 src/v2/MessageTransmitterV2.sol (bytes32
 *   nonce, finalityThresholdExecuted), emitted by `receiveMessage` after the TokenMessenger's handler minted;
 * - `MintAndWithdraw`: V1 src/TokenMessenger.sol `_mintAndWithdraw`, V2 src/v2/BaseTokenMessenger.sol
 *   `_mintAndWithdraw` (adds feeCollected; `amount` is what the mint recipient got, the burn amount less the fee).
 */
export const cctpBurnEventsAbi = parseAbi([
  'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  'event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)',
]);

export const cctpMessageSentAbi = parseAbi(['event MessageSent(bytes message)']);

export const cctpMessageReceivedAbi = parseAbi([
  'event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)',
  'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
]);

export const cctpMintAndWithdrawAbi = parseAbi([
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)',
  'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
]);

const selector = (abi: readonly Parameters<typeof toEventSelector>[0][], at: number) =>
  toEventSelector(abi[at]).toLowerCase();

export const CCTP_TOPICS = {
  depositForBurnV2: selector(cctpBurnEventsAbi, 0),
  depositForBurnV1: selector(cctpBurnEventsAbi, 1),
  messageSent: selector(cctpMessageSentAbi, 0),
  messageReceivedV1: selector(cctpMessageReceivedAbi, 0),
  messageReceivedV2: selector(cctpMessageReceivedAbi, 1),
  mintAndWithdrawV1: selector(cctpMintAndWithdrawAbi, 0),
  mintAndWithdrawV2: selector(cctpMintAndWithdrawAbi, 1),
} as const;
