// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

/// The order-creation side of Mayan Swift. `minAmountOut` is in min(8, output decimals) decimals and
/// `destChainId` is a Wormhole chain id, as in the real protocol; addresses are left-padded bytes32. The contract
/// keeps the input: the sandbox filler fulfils orders on the destination chain from its own funds.
contract MayanSwift {
    struct OrderParams {
        bytes32 trader;
        bytes32 tokenOut;
        uint64 minAmountOut;
        uint64 gasDrop;
        uint64 cancelFee;
        uint64 refundFee;
        uint64 deadline;
        bytes32 destAddr;
        uint16 destChainId;
        bytes32 referrerAddr;
        uint8 referrerBps;
        uint8 auctionMode;
        bytes32 random;
    }

    mapping(bytes32 key => bool) public orders;

    event OrderCreated(
        bytes32 indexed key,
        address tokenIn,
        uint256 amountIn,
        bytes32 trader,
        bytes32 tokenOut,
        uint64 minAmountOut,
        bytes32 destAddr,
        uint16 destChainId,
        uint64 deadline
    );

    error SmallAmountIn();
    error DuplicateOrder();

    function createOrderWithEth(OrderParams calldata params) external payable returns (bytes32 orderHash) {
        return _createOrder(params, address(0), msg.value);
    }

    function createOrderWithToken(
        address tokenIn,
        uint256 amountIn,
        OrderParams calldata params
    ) external returns (bytes32 orderHash) {
        TokenTransfers.pull(tokenIn, msg.sender, amountIn);
        return _createOrder(params, tokenIn, amountIn);
    }

    function _createOrder(
        OrderParams calldata params,
        address tokenIn,
        uint256 amountIn
    ) private returns (bytes32 key) {
        if (amountIn == 0) revert SmallAmountIn();
        key = keccak256(abi.encode(params, tokenIn, amountIn, block.chainid));
        if (orders[key]) revert DuplicateOrder();
        orders[key] = true;
        emit OrderCreated(
            key,
            tokenIn,
            amountIn,
            params.trader,
            params.tokenOut,
            params.minAmountOut,
            params.destAddr,
            params.destChainId,
            params.deadline
        );
    }
}
