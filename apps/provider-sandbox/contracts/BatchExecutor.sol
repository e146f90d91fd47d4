// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A minimal EIP-7702 delegate for the observe tests. It exposes the batch entry points real smart-account
/// delegates use: `executeBatch(Call[])` (Coinbase Smart Wallet, eth-infinitism Simple7702Account) and ERC-7821
/// `execute(bytes32,bytes)` in the batch modes viem encodes (without and with opData). A failing call reverts the
/// whole batch with its revert data. Only the account itself may call it.
contract BatchExecutor {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    bytes32 private constant BATCH = 0x0100000000000000000000000000000000000000000000000000000000000000;
    bytes32 private constant BATCH_WITH_OP_DATA = 0x0100000000007821000100000000000000000000000000000000000000000000;

    error Unauthorized();
    error UnsupportedExecutionMode();

    function executeBatch(Call[] calldata calls) external payable {
        _onlySelf();
        _run(calls);
    }

    function execute(bytes32 mode, bytes calldata executionData) external payable {
        _onlySelf();
        if (mode == BATCH) {
            _run(abi.decode(executionData, (Call[])));
        } else if (mode == BATCH_WITH_OP_DATA) {
            (Call[] memory calls, ) = abi.decode(executionData, (Call[], bytes));
            _run(calls);
        } else {
            revert UnsupportedExecutionMode();
        }
    }

    receive() external payable {}

    function _onlySelf() private view {
        if (msg.sender != address(this)) revert Unauthorized();
    }

    function _run(Call[] memory calls) private {
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool ok, bytes memory ret) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(ret, 32), mload(ret))
                }
            }
        }
    }
}
