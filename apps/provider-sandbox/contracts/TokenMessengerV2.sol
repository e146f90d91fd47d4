// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IMessageHandlerV2, IRelayerV2} from "./CctpDomains.sol";

interface IBurnMintToken {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
    function burn(uint256 amount) external;
    function mint(address to, uint256 amount) external;
}

/// Circle's CCTP V2 TokenMessengerV2 (circlefin/evm-cctp-contracts src/v2/TokenMessengerV2.sol and
/// BaseTokenMessenger.sol), reduced to the sandbox USDC: `depositForBurn` / `depositForBurnWithHook` with the real
/// checks, revert strings, BurnMessageV2 body and `DepositForBurn` event; receiving mints amount - feeExecuted to the
/// mint recipient and the fee to the fee recipient, with the real `MintAndWithdraw`. The token minter is folded in
/// (the messenger pulls and burns the tokens itself, where Circle's hands them to its TokenMinterV2), the remote
/// token messenger of every domain is this same address (the sandbox deploys it at one address on every chain), and
/// USDC is the only burn and mint token. No denylist, minimum fee, roles or upgrades.
///
/// BurnMessageV2: version (4) | burnToken (32) | mintRecipient (32) | amount (32) | messageSender (32) | maxFee (32) |
/// feeExecuted (32) | expirationBlock (32) | hookData. The sent body has feeExecuted and expirationBlock empty; the
/// attester fills them in.
contract TokenMessengerV2 is IMessageHandlerV2 {
    event DepositForBurn(
        address indexed burnToken,
        uint256 amount,
        address indexed depositor,
        bytes32 mintRecipient,
        uint32 destinationDomain,
        bytes32 destinationTokenMessenger,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 indexed minFinalityThreshold,
        bytes hookData
    );
    event MintAndWithdraw(
        address indexed mintRecipient,
        uint256 amount,
        address indexed mintToken,
        uint256 feeCollected
    );

    /// src/v2/FinalityThresholds.sol TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD
    uint32 private constant TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD = 500;
    uint256 private constant HOOK_DATA_INDEX = 228;

    address public immutable localMessageTransmitter;
    uint32 public immutable messageBodyVersion;
    address public immutable usdc;
    address public immutable feeRecipient;

    constructor(address messageTransmitter_, uint32 messageBodyVersion_, address usdc_, address feeRecipient_) {
        localMessageTransmitter = messageTransmitter_;
        messageBodyVersion = messageBodyVersion_;
        usdc = usdc_;
        feeRecipient = feeRecipient_;
    }

    function depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold
    ) external {
        _depositForBurn(
            amount,
            destinationDomain,
            mintRecipient,
            burnToken,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            msg.data[0:0]
        );
    }

    function depositForBurnWithHook(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) external {
        require(hookData.length > 0, "Hook data is empty");
        _depositForBurn(
            amount,
            destinationDomain,
            mintRecipient,
            burnToken,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            hookData
        );
    }

    function handleReceiveFinalizedMessage(
        uint32,
        bytes32 sender,
        uint32,
        bytes calldata messageBody
    ) external returns (bool) {
        _onlyTransmitterFromRemoteMessenger(sender);
        return _handleReceiveMessage(messageBody);
    }

    function handleReceiveUnfinalizedMessage(
        uint32,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool) {
        _onlyTransmitterFromRemoteMessenger(sender);
        require(
            finalityThresholdExecuted >= TOKEN_MESSENGER_MIN_FINALITY_THRESHOLD,
            "Unsupported finality threshold"
        );
        return _handleReceiveMessage(messageBody);
    }

    function _depositForBurn(
        uint256 amount,
        uint32 destinationDomain,
        bytes32 mintRecipient,
        address burnToken,
        bytes32 destinationCaller,
        uint256 maxFee,
        uint32 minFinalityThreshold,
        bytes calldata hookData
    ) private {
        require(amount > 0, "Amount must be nonzero");
        require(mintRecipient != bytes32(0), "Mint recipient must be nonzero");
        require(maxFee < amount, "Max fee must be less than amount");
        require(burnToken == usdc, "Burn token not supported");
        bytes32 destinationTokenMessenger = bytes32(uint256(uint160(address(this))));
        IBurnMintToken(burnToken).transferFrom(msg.sender, address(this), amount);
        IBurnMintToken(burnToken).burn(amount);
        bytes memory burnMessage = abi.encodePacked(
            messageBodyVersion,
            bytes32(uint256(uint160(burnToken))),
            mintRecipient,
            amount,
            bytes32(uint256(uint160(msg.sender))),
            maxFee,
            uint256(0),
            uint256(0),
            hookData
        );
        IRelayerV2(localMessageTransmitter).sendMessage(
            destinationDomain,
            destinationTokenMessenger,
            destinationCaller,
            minFinalityThreshold,
            burnMessage
        );
        emit DepositForBurn(
            burnToken,
            amount,
            msg.sender,
            mintRecipient,
            destinationDomain,
            destinationTokenMessenger,
            destinationCaller,
            maxFee,
            minFinalityThreshold,
            hookData
        );
    }

    function _handleReceiveMessage(bytes calldata body) private returns (bool) {
        require(body.length >= HOOK_DATA_INDEX, "Invalid burn message");
        require(uint32(bytes4(body[0:4])) == messageBodyVersion, "Invalid message body version");
        uint256 expirationBlock = uint256(bytes32(body[196:228]));
        require(
            expirationBlock == 0 || expirationBlock > block.number,
            "Message expired and must be re-signed"
        );
        uint256 amount = uint256(bytes32(body[68:100]));
        uint256 fee = uint256(bytes32(body[164:196]));
        require(fee == 0 || fee < amount, "Fee equals or exceeds amount");
        require(fee <= uint256(bytes32(body[132:164])), "Fee exceeds max fee");
        require(bytes32(body[4:36]) == bytes32(uint256(uint160(usdc))), "Mint token not supported");
        address mintRecipient = address(uint160(uint256(bytes32(body[36:68]))));
        IBurnMintToken(usdc).mint(mintRecipient, amount - fee);
        if (fee > 0) IBurnMintToken(usdc).mint(feeRecipient, fee);
        emit MintAndWithdraw(mintRecipient, amount - fee, usdc, fee);
        return true;
    }

    function _onlyTransmitterFromRemoteMessenger(bytes32 sender) private view {
        require(msg.sender == localMessageTransmitter, "Invalid message transmitter");
        require(sender == bytes32(uint256(uint160(address(this)))), "Remote TokenMessenger unsupported");
    }
}
