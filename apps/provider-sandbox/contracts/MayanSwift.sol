// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SwiftSource} from "./SwiftSource.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// The order-creation side of Mayan Swift V1 (swap-sdk src/evm/MayanSwiftArtifact.ts; source
/// mayan-finance/swap-bridge src/MayanSwift.sol). `minAmountOut` is in min(8, output decimals) decimals and
/// `destChainId` is a Wormhole chain id, as in the real protocol; addresses are left-padded bytes32. The contract
/// keeps the input: the sandbox filler fulfils orders on the destination chain from its own funds.
contract MayanSwift is SwiftSource {
    /// swap-bridge src/MayanSwift.sol `BPS_FEE_LIMIT`.
    uint8 internal constant BPS_FEE_LIMIT = 50;

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

    /// V1: any destination but this chain (`destChainId == 0 || destChainId == wormhole.chainId()` reverts).
    function _servesDestination(uint16 destChainId) internal view override returns (bool) {
        return destChainId != 0 && destChainId != _wormholeChainId(block.chainid);
    }

    function _createOrder(
        OrderParams calldata params,
        address tokenIn,
        uint256 amountIn
    ) private returns (bytes32 key) {
        _check(
            Checked({
                amountIn: amountIn,
                decimals: _decimalsOf(tokenIn),
                cancelFee: params.cancelFee,
                refundFee: params.refundFee,
                tokenOut: params.tokenOut,
                gasDrop: params.gasDrop,
                referrerBps: params.referrerBps,
                destChainId: params.destChainId
            }),
            BPS_FEE_LIMIT
        );
        key = keccak256(abi.encode(params, tokenIn, amountIn, block.chainid));
        _record(key);
        emit OrderCreated(
            key,
            tokenIn,
            amountIn,
            params.trader,
            params.tokenOut,
            params.minAmountOut,
            params.destAddr,
            params.destChainId,
            params.deadline,
            params.random
        );
    }
}
