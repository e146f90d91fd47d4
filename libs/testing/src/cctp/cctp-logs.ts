import {
  type AbiParameter,
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  encodePacked,
  type Hex,
  pad,
  parseAbi,
  zeroAddress,
} from 'viem';

/**
 * CCTP logs built exactly as Circle's contracts emit them (circlefin/evm-cctp-contracts @ 4061786a, 2025-10-01), for
 * tests of the decoders and of fill attribution. The event signatures are copied here on their own from the Solidity
 * sources (not imported from the code under test), and the message bytes are packed as the libraries pack them:
 * src/messages/Message.sol, src/messages/BurnMessage.sol (V1), src/messages/v2/MessageV2.sol,
 * src/messages/v2/BurnMessageV2.sol (V2).
 */
const ABI = {
  depositForBurnV1: parseAbi([
    // src/TokenMessenger.sol
    'event DepositForBurn(uint64 indexed nonce, address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller)',
  ]),
  depositForBurnV2: parseAbi([
    // src/v2/TokenMessengerV2.sol
    'event DepositForBurn(address indexed burnToken, uint256 amount, address indexed depositor, bytes32 mintRecipient, uint32 destinationDomain, bytes32 destinationTokenMessenger, bytes32 destinationCaller, uint256 maxFee, uint32 indexed minFinalityThreshold, bytes hookData)',
  ]),
  // src/MessageTransmitter.sol and src/v2/MessageTransmitterV2.sol
  messageSent: parseAbi(['event MessageSent(bytes message)']),
  messageReceivedV1: parseAbi([
    'event MessageReceived(address indexed caller, uint32 sourceDomain, uint64 indexed nonce, bytes32 sender, bytes messageBody)',
  ]),
  messageReceivedV2: parseAbi([
    'event MessageReceived(address indexed caller, uint32 sourceDomain, bytes32 indexed nonce, bytes32 sender, uint32 indexed finalityThresholdExecuted, bytes messageBody)',
  ]),
  // src/TokenMessenger.sol; src/v2/BaseTokenMessenger.sol
  mintAndWithdrawV1: parseAbi([
    'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken)',
  ]),
  mintAndWithdrawV2: parseAbi([
    'event MintAndWithdraw(address indexed mintRecipient, uint256 amount, address indexed mintToken, uint256 feeCollected)',
  ]),
  transfer: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
} as const;

export interface CctpLog {
  address: Address;
  topics: Hex[];
  data: Hex;
}

const b32 = (address: Address): Hex => pad(address, { size: 32 });
const dataOf = (inputs: readonly AbiParameter[], values: readonly unknown[]) =>
  encodeAbiParameters(
    inputs.filter((i) => !('indexed' in i && i.indexed === true)),
    values,
  );

/** The contracts and domains of one CCTP route in a test. */
export interface CctpRoute {
  sourceDomain: number;
  destinationDomain: number;
  sourceTokenMessenger: Address;
  sourceTransmitter: Address;
  destinationTokenMessenger: Address;
  destinationTransmitter: Address;
  burnToken: Address;
  mintToken: Address;
}

/**
 * Ethereum (domain 0) → Base (domain 6) over CCTP V2 at Circle's mainnet addresses (TokenMessengerV2 and
 * MessageTransmitterV2 sit at the same address on every chain in V2), burning Ethereum's USDC, minting Base's.
 */
export const ETHEREUM_TO_BASE_CCTP_ROUTE: CctpRoute = {
  sourceDomain: 0,
  destinationDomain: 6,
  sourceTokenMessenger: '0x28b5a0e9c621a5badaa536219b3a228c8168cf5d',
  sourceTransmitter: '0x81d40f21f12a8f0e3252bccb954d722d4c464b64',
  destinationTokenMessenger: '0x28b5a0e9c621a5badaa536219b3a228c8168cf5d',
  destinationTransmitter: '0x81d40f21f12a8f0e3252bccb954d722d4c464b64',
  burnToken: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
  mintToken: '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
};

/** One burn: what `depositForBurn` is called with, and who calls it. */
export interface CctpBurnCall {
  depositor: Address;
  mintRecipient: Address;
  amount: bigint;
  /** V2 only. */
  maxFee?: bigint;
  hookData?: Hex;
  destinationCaller?: Address;
  minFinalityThreshold?: number;
}

/** BurnMessage._formatMessage (V1, version 0): 132 bytes. */
export function burnBodyV1(route: CctpRoute, call: CctpBurnCall): Hex {
  return encodePacked(
    ['uint32', 'bytes32', 'bytes32', 'uint256', 'bytes32'],
    [0, b32(route.burnToken), b32(call.mintRecipient), call.amount, b32(call.depositor)],
  );
}

/** BurnMessageV2 (version 1), as sent (`_formatMessageForRelay`: feeExecuted and expirationBlock 0) or as attested. */
export function burnBodyV2(
  route: CctpRoute,
  call: CctpBurnCall,
  attested: { feeExecuted?: bigint; expirationBlock?: bigint } = {},
): Hex {
  return encodePacked(
    ['uint32', 'bytes32', 'bytes32', 'uint256', 'bytes32', 'uint256', 'uint256', 'uint256', 'bytes'],
    [
      1,
      b32(route.burnToken),
      b32(call.mintRecipient),
      call.amount,
      b32(call.depositor),
      call.maxFee ?? 0n,
      attested.feeExecuted ?? 0n,
      attested.expirationBlock ?? 0n,
      call.hookData ?? '0x',
    ],
  );
}

/** Message._formatMessage (V1, version 0). */
export function messageV1(route: CctpRoute, nonce: bigint, call: CctpBurnCall): Hex {
  return encodePacked(
    ['uint32', 'uint32', 'uint32', 'uint64', 'bytes32', 'bytes32', 'bytes32', 'bytes'],
    [
      0,
      route.sourceDomain,
      route.destinationDomain,
      nonce,
      b32(route.sourceTokenMessenger),
      b32(route.destinationTokenMessenger),
      b32(call.destinationCaller ?? zeroAddress),
      burnBodyV1(route, call),
    ],
  );
}

/** MessageV2._formatMessageForRelay (version 1): the nonce and finalityThresholdExecuted empty, as sent. */
export function messageV2(route: CctpRoute, call: CctpBurnCall): Hex {
  return encodePacked(
    ['uint32', 'uint32', 'uint32', 'bytes32', 'bytes32', 'bytes32', 'bytes32', 'uint32', 'uint32', 'bytes'],
    [
      1,
      route.sourceDomain,
      route.destinationDomain,
      pad('0x00', { size: 32 }),
      b32(route.sourceTokenMessenger),
      b32(route.destinationTokenMessenger),
      b32(call.destinationCaller ?? zeroAddress),
      call.minFinalityThreshold ?? 2000,
      0,
      burnBodyV2(route, call),
    ],
  );
}

/** The source logs of a V1 `depositForBurn` (TokenMessenger._sendDepositForBurnMessage, then DepositForBurn). */
export function cctpBurnV1Logs(route: CctpRoute, nonce: bigint, call: CctpBurnCall): CctpLog[] {
  const sent = messageSentLog(route.sourceTransmitter, messageV1(route, nonce, call));
  const event = ABI.depositForBurnV1[0];
  const burn: CctpLog = {
    address: route.sourceTokenMessenger,
    topics: encodeEventTopics({
      abi: ABI.depositForBurnV1,
      eventName: 'DepositForBurn',
      args: { nonce, burnToken: route.burnToken, depositor: call.depositor },
    }) as Hex[],
    data: dataOf(event.inputs, [
      call.amount,
      b32(call.mintRecipient),
      route.destinationDomain,
      b32(route.destinationTokenMessenger),
      b32(call.destinationCaller ?? zeroAddress),
    ]),
  };
  return [sent, burn];
}

/** The source logs of a V2 `depositForBurn` (TokenMessengerV2._depositForBurn: sendMessage, then DepositForBurn). */
export function cctpBurnV2Logs(route: CctpRoute, call: CctpBurnCall): CctpLog[] {
  const sent = messageSentLog(route.sourceTransmitter, messageV2(route, call));
  const event = ABI.depositForBurnV2[0];
  const burn: CctpLog = {
    address: route.sourceTokenMessenger,
    topics: encodeEventTopics({
      abi: ABI.depositForBurnV2,
      eventName: 'DepositForBurn',
      args: {
        burnToken: route.burnToken,
        depositor: call.depositor,
        minFinalityThreshold: call.minFinalityThreshold ?? 2000,
      },
    }) as Hex[],
    data: dataOf(event.inputs, [
      call.amount,
      b32(call.mintRecipient),
      route.destinationDomain,
      b32(route.destinationTokenMessenger),
      b32(call.destinationCaller ?? zeroAddress),
      call.maxFee ?? 0n,
      call.hookData ?? '0x',
    ]),
  };
  return [sent, burn];
}

/**
 * The destination logs of one V1 `receiveMessage`: the token's mint Transfer, TokenMessenger's MintAndWithdraw, then
 * the transmitter's MessageReceived (MessageTransmitter.receiveMessage: handler first, event last).
 */
export function cctpReceiveV1Logs(
  route: CctpRoute,
  nonce: bigint,
  call: CctpBurnCall,
  caller: Address,
): CctpLog[] {
  const mint = ABI.mintAndWithdrawV1[0];
  const received = ABI.messageReceivedV1[0];
  return [
    transferLog(route.mintToken, zeroAddress, call.mintRecipient, call.amount),
    {
      address: route.destinationTokenMessenger,
      topics: encodeEventTopics({
        abi: ABI.mintAndWithdrawV1,
        eventName: 'MintAndWithdraw',
        args: { mintRecipient: call.mintRecipient, mintToken: route.mintToken },
      }) as Hex[],
      data: dataOf(mint.inputs, [call.amount]),
    },
    {
      address: route.destinationTransmitter,
      topics: encodeEventTopics({
        abi: ABI.messageReceivedV1,
        eventName: 'MessageReceived',
        args: { caller, nonce },
      }) as Hex[],
      data: dataOf(received.inputs, [
        route.sourceDomain,
        b32(route.sourceTokenMessenger),
        burnBodyV1(route, call),
      ]),
    },
  ];
}

/**
 * The destination logs of one V2 `receiveMessage` of an attested message (`nonce` assigned by the attestation,
 * `feeExecuted` taken): the mint to the recipient (amount − fee) and the fee to the fee recipient
 * (TokenMinterV2.mint), BaseTokenMessenger's MintAndWithdraw, then MessageTransmitterV2's MessageReceived.
 */
export function cctpReceiveV2Logs(
  route: CctpRoute,
  attested: { nonce: Hex; feeExecuted: bigint; finalityThresholdExecuted?: number; feeRecipient?: Address },
  call: CctpBurnCall,
  caller: Address,
): CctpLog[] {
  const minted = call.amount - attested.feeExecuted;
  const mint = ABI.mintAndWithdrawV2[0];
  const received = ABI.messageReceivedV2[0];
  const fee =
    attested.feeExecuted > 0n
      ? [transferLog(route.mintToken, zeroAddress, attested.feeRecipient ?? caller, attested.feeExecuted)]
      : [];
  return [
    transferLog(route.mintToken, zeroAddress, call.mintRecipient, minted),
    ...fee,
    {
      address: route.destinationTokenMessenger,
      topics: encodeEventTopics({
        abi: ABI.mintAndWithdrawV2,
        eventName: 'MintAndWithdraw',
        args: { mintRecipient: call.mintRecipient, mintToken: route.mintToken },
      }) as Hex[],
      data: dataOf(mint.inputs, [minted, attested.feeExecuted]),
    },
    {
      address: route.destinationTransmitter,
      topics: encodeEventTopics({
        abi: ABI.messageReceivedV2,
        eventName: 'MessageReceived',
        args: {
          caller,
          nonce: attested.nonce,
          finalityThresholdExecuted: attested.finalityThresholdExecuted ?? 1000,
        },
      }) as Hex[],
      data: dataOf(received.inputs, [
        route.sourceDomain,
        b32(route.sourceTokenMessenger),
        burnBodyV2(route, call, { feeExecuted: attested.feeExecuted }),
      ]),
    },
  ];
}

export function messageSentLog(transmitter: Address, message: Hex): CctpLog {
  return {
    address: transmitter,
    topics: encodeEventTopics({ abi: ABI.messageSent, eventName: 'MessageSent' }) as Hex[],
    data: encodeAbiParameters([{ type: 'bytes' }], [message]),
  };
}

export function transferLog(token: Address, from: Address, to: Address, value: bigint): CctpLog {
  return {
    address: token,
    topics: encodeEventTopics({ abi: ABI.transfer, eventName: 'Transfer', args: { from, to } }) as Hex[],
    data: encodeAbiParameters([{ type: 'uint256' }], [value]),
  };
}

/** Logs of one transaction numbered from `first` (their block-wide logIndex). */
export function withLogIndexes<T extends CctpLog>(
  logs: readonly T[],
  first = 0,
): (T & { logIndex: number })[] {
  return logs.map((log, i) => ({ ...log, logIndex: first + i }));
}
