// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {CctpDomains, IMessageHandlerV2} from "./CctpDomains.sol";

/// Circle's CCTP V2 MessageTransmitterV2 (circlefin/evm-cctp-contracts src/v2/MessageTransmitterV2.sol), reduced to
/// what the sandbox plays: the same events, message layout (src/messages/v2/MessageV2.sol), checks and revert
/// strings on `sendMessage` and `receiveMessage`. One attester (the sandbox's own key) signs keccak256(message);
/// Circle's attestation is a threshold of such signatures. No pausing, roles, upgrades or max body size.
///
/// MessageV2: version (4) | sourceDomain (4) | destinationDomain (4) | nonce (32) | sender (32) | recipient (32) |
/// destinationCaller (32) | minFinalityThreshold (4) | finalityThresholdExecuted (4) | messageBody. `MessageSent`
/// carries an empty nonce and finalityThresholdExecuted: the attester fills both in the message it signs.
contract MessageTransmitterV2 {
    event MessageSent(bytes message);
    event MessageReceived(
        address indexed caller,
        uint32 sourceDomain,
        bytes32 indexed nonce,
        bytes32 sender,
        uint32 indexed finalityThresholdExecuted,
        bytes messageBody
    );

    /// src/v2/FinalityThresholds.sol
    uint32 private constant FINALITY_THRESHOLD_FINALIZED = 2000;
    uint256 private constant NONCE_USED = 1;
    uint256 private constant MESSAGE_BODY_INDEX = 148;

    uint32 public immutable localDomain;
    uint32 public immutable version;
    address public immutable attester;
    mapping(bytes32 nonce => uint256) public usedNonces;

    constructor(address attester_, uint32 version_) {
        localDomain = CctpDomains.domainOf(block.chainid);
        version = version_;
        attester = attester_;
        // initialize(): "Claim 0-nonce"
        usedNonces[bytes32(0)] = NONCE_USED;
    }

    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external {
        require(destinationDomain != localDomain, "Domain is local domain");
        require(recipient != bytes32(0), "Recipient must be nonzero");
        emit MessageSent(
            abi.encodePacked(
                version,
                localDomain,
                destinationDomain,
                bytes32(0),
                bytes32(uint256(uint160(msg.sender))),
                recipient,
                destinationCaller,
                minFinalityThreshold,
                uint32(0),
                messageBody
            )
        );
    }

    function receiveMessage(bytes calldata message, bytes calldata attestation) external returns (bool success) {
        require(attestation.length == 65, "Invalid attestation length");
        require(_recover(keccak256(message), attestation) == attester, "Invalid signature: not attester");
        require(message.length >= MESSAGE_BODY_INDEX, "Invalid message: too short");
        require(uint32(bytes4(message[8:12])) == localDomain, "Invalid destination domain");
        bytes32 destinationCaller = bytes32(message[108:140]);
        if (destinationCaller != bytes32(0)) {
            require(destinationCaller == bytes32(uint256(uint160(msg.sender))), "Invalid caller for message");
        }
        require(uint32(bytes4(message[0:4])) == version, "Invalid message version");
        bytes32 nonce = bytes32(message[12:44]);
        require(usedNonces[nonce] == 0, "Nonce already used");
        usedNonces[nonce] = NONCE_USED;

        uint32 sourceDomain = uint32(bytes4(message[4:8]));
        bytes32 sender = bytes32(message[44:76]);
        address recipient = address(uint160(uint256(bytes32(message[76:108]))));
        uint32 finalityThresholdExecuted = uint32(bytes4(message[144:148]));
        bytes calldata messageBody = message[MESSAGE_BODY_INDEX:];
        if (finalityThresholdExecuted < FINALITY_THRESHOLD_FINALIZED) {
            require(
                IMessageHandlerV2(recipient).handleReceiveUnfinalizedMessage(
                    sourceDomain,
                    sender,
                    finalityThresholdExecuted,
                    messageBody
                ),
                "handleReceiveUnfinalizedMessage() failed"
            );
        } else {
            require(
                IMessageHandlerV2(recipient).handleReceiveFinalizedMessage(
                    sourceDomain,
                    sender,
                    finalityThresholdExecuted,
                    messageBody
                ),
                "handleReceiveFinalizedMessage() failed"
            );
        }
        emit MessageReceived(msg.sender, sourceDomain, nonce, sender, finalityThresholdExecuted, messageBody);
        return true;
    }

    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(digest, v, r, s);
    }
}
