// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

interface IErc20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external;
}

/// Mayan's forwarder: the transaction target of every Mayan EVM swap. It pulls the input, approves the Mayan
/// protocol contract and calls it with the protocol calldata the client built. Unlike the real forwarder it keeps
/// no allow-list of protocols.
contract MayanForwarder {
    struct PermitParams {
        uint256 value;
        uint256 deadline;
        uint8 v;
        bytes32 r;
        bytes32 s;
    }

    event ForwardedEth(address protocol, bytes protocolData);
    event ForwardedERC20(address token, uint256 amount, address protocol, bytes protocolData);

    function forwardEth(address mayanProtocol, bytes calldata protocolData) external payable {
        _callProtocol(mayanProtocol, protocolData);
        emit ForwardedEth(mayanProtocol, protocolData);
    }

    function forwardERC20(
        address tokenIn,
        uint256 amountIn,
        PermitParams calldata permitParams,
        address mayanProtocol,
        bytes calldata protocolData
    ) external payable {
        if (permitParams.value != 0) {
            IErc20Permit(tokenIn).permit(
                msg.sender,
                address(this),
                permitParams.value,
                permitParams.deadline,
                permitParams.v,
                permitParams.r,
                permitParams.s
            );
        }
        TokenTransfers.pull(tokenIn, msg.sender, amountIn);
        TokenTransfers.forceApprove(tokenIn, mayanProtocol, amountIn);
        _callProtocol(mayanProtocol, protocolData);
        emit ForwardedERC20(tokenIn, amountIn, mayanProtocol, protocolData);
    }

    /// Forwards msg.value and bubbles up the protocol's revert data.
    function _callProtocol(address mayanProtocol, bytes calldata protocolData) private {
        (bool ok, bytes memory ret) = mayanProtocol.call{value: msg.value}(protocolData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
    }
}
