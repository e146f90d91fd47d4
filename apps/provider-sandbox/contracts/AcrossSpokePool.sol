// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

/// The deposit side of Across's SpokePool (`depositV3`). Native deposits name the chain's wrapped native token as
/// the input token and send the amount as value; the pool keeps the ETH (the sandbox WETH cannot wrap). Thirteen
/// event fields are too deep a stack for the legacy code generator: the build uses via-IR, as Across does.
contract AcrossSpokePool {
    address public immutable wrappedNativeToken;
    uint32 public numberOfDeposits;

    event V3FundsDeposited(
        address inputToken,
        address outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 indexed destinationChainId,
        uint32 indexed depositId,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        address indexed depositor,
        address recipient,
        address exclusiveRelayer,
        bytes message
    );

    error MsgValueDoesNotMatchInputAmount();

    constructor(address wrappedNativeToken_) {
        wrappedNativeToken = wrappedNativeToken_;
    }

    function depositV3(
        address depositor,
        address recipient,
        address inputToken,
        address outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 destinationChainId,
        address exclusiveRelayer,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        bytes calldata message
    ) external payable {
        if (inputToken == wrappedNativeToken && msg.value != 0) {
            if (msg.value != inputAmount) revert MsgValueDoesNotMatchInputAmount();
        } else {
            if (msg.value != 0) revert MsgValueDoesNotMatchInputAmount();
            TokenTransfers.pull(inputToken, msg.sender, inputAmount);
        }
        emit V3FundsDeposited(
            inputToken,
            outputToken,
            inputAmount,
            outputAmount,
            destinationChainId,
            numberOfDeposits++,
            quoteTimestamp,
            fillDeadline,
            exclusivityDeadline,
            depositor,
            recipient,
            exclusiveRelayer,
            message
        );
    }
}
