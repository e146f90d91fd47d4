// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

interface IErc20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)
        external;
}

/// Mayan's forwarder: the transaction target of every Mayan EVM swap. It pulls the input, approves the Mayan
/// protocol contract and calls it with the protocol calldata the client built. `swapAndForwardEth` first runs a
/// swap (for Swift V2 wrap-and-lock: ETH to WETH) and writes the amount it yielded into the protocol calldata, as
/// the real one does (mayan-finance/swap-bridge src/MayanForwarder.sol). Unlike the real forwarder it keeps no
/// allow-list of swap or protocol contracts and has no swapAndForwardERC20.
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
    event SwapAndForwardedEth(
        uint256 amountIn,
        address swapProtocol,
        address middleToken,
        uint256 middleAmount,
        address mayanProtocol,
        bytes mayanData
    );

    error ZeroMiddleToken();
    error InsufficientAmountIn();
    error SwapFailed();
    error InsufficientMiddleToken();
    error MayanDataTooShort();

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

    function swapAndForwardEth(
        uint256 amountIn,
        address swapProtocol,
        bytes calldata swapData,
        address middleToken,
        uint256 minMiddleAmount,
        address mayanProtocol,
        bytes calldata mayanData
    ) external payable {
        if (middleToken == address(0)) revert ZeroMiddleToken();
        if (msg.value < amountIn) revert InsufficientAmountIn();
        uint256 before = _balanceOf(middleToken);
        (bool swapped, ) = swapProtocol.call{value: amountIn}(swapData);
        if (!swapped) revert SwapFailed();
        uint256 middleAmount = _balanceOf(middleToken) - before;
        if (middleAmount < minMiddleAmount) revert InsufficientMiddleToken();
        TokenTransfers.forceApprove(middleToken, mayanProtocol, middleAmount);
        // The protocol call's first two arguments are (tokenIn, amountIn): the amount becomes what the swap gave.
        if (mayanData.length < 68) revert MayanDataTooShort();
        bytes memory data = mayanData;
        assembly {
            mstore(add(data, 68), middleAmount)
        }
        _call(mayanProtocol, data, msg.value - amountIn);
        emit SwapAndForwardedEth(amountIn, swapProtocol, middleToken, middleAmount, mayanProtocol, mayanData);
    }

    function _balanceOf(address token) private view returns (uint256) {
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSignature("balanceOf(address)", address(this)));
        return ok && ret.length == 32 ? abi.decode(ret, (uint256)) : 0;
    }

    /// Forwards msg.value and bubbles up the protocol's revert data.
    function _callProtocol(address mayanProtocol, bytes calldata protocolData) private {
        _call(mayanProtocol, protocolData, msg.value);
    }

    function _call(address mayanProtocol, bytes memory protocolData, uint256 value) private {
        (bool ok, bytes memory ret) = mayanProtocol.call{value: value}(protocolData);
        if (!ok) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
    }
}
