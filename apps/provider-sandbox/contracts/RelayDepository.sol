// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

/// Relay's depository: takes deposits tagged with the request id and keeps them. The sandbox filler watches the
/// events and delivers on the destination chain from its own funds.
contract RelayDepository {
    event RelayNativeDeposit(address indexed from, uint256 amount, bytes32 indexed id);
    event RelayErc20Deposit(address indexed from, address indexed token, uint256 amount, bytes32 indexed id);

    function depositNative(address depositor, bytes32 id) external payable {
        emit RelayNativeDeposit(_depositor(depositor), msg.value, id);
    }

    function depositErc20(address depositor, address token, uint256 amount, bytes32 id) external {
        TokenTransfers.pull(token, msg.sender, amount);
        emit RelayErc20Deposit(_depositor(depositor), token, amount, id);
    }

    /// As in Relay's contract, a zero depositor means the caller.
    function _depositor(address depositor) private view returns (address) {
        return depositor == address(0) ? msg.sender : depositor;
    }
}
