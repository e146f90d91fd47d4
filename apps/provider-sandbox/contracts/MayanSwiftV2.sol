// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {SwiftSource} from "./SwiftSource.sol";
import {TokenTransfers} from "./TokenTransfers.sol";

/// The order-creation side of Mayan Swift V2 (swap-sdk src/evm/MayanSwiftV2Artifact.ts; source
/// mayan-finance/swap-bridge branch swift-v2-forge src/swift/SwiftSource.sol), with wrap-and-lock: since swap-sdk
/// v13.0.0 (2026-02-24, "Lock WETH in Swift V2") native input reaches V2 as WETH through the forwarder's
/// swapAndForwardEth, and the order names tokenIn 0x0. No source of that contract is public; here tokenIn 0x0 pulls
/// WETH from the caller and records a native order, so a refund pays ETH. createOrderWithEth reverts: the SDK says
/// "Swift V2 doesn't support createOrderWithEth", so a client that still builds it fails here, as it would there.
contract MayanSwiftV2 is SwiftSource {
    /// swap-bridge swift-v2-forge src/swift/SwiftSource.sol `BPS_FEE_LIMIT`.
    uint8 internal constant BPS_FEE_LIMIT = 200;
    /// swap-sdk src/utils.ts `SWIFT_PAYLOAD_TYPE_CUSTOM_PAYLOAD`: the payload's hash joins the order key.
    uint8 internal constant PAYLOAD_TYPE_CUSTOM = 2;

    address public immutable weth;

    struct OrderParams {
        uint8 payloadType;
        bytes32 trader;
        bytes32 destAddr;
        uint16 destChainId;
        bytes32 referrerAddr;
        bytes32 tokenOut;
        uint64 minAmountOut;
        uint64 gasDrop;
        uint64 cancelFee;
        uint64 refundFee;
        uint64 deadline;
        uint8 referrerBps;
        uint8 auctionMode;
        bytes32 random;
    }

    error CreateOrderWithEthUnsupported();

    constructor(address weth_) {
        weth = weth_;
    }

    function createOrderWithEth(OrderParams calldata, bytes calldata) external payable returns (bytes32) {
        revert CreateOrderWithEthUnsupported();
    }

    function createOrderWithToken(
        address tokenIn,
        uint256 amountIn,
        OrderParams calldata params,
        bytes calldata customPayload
    ) external returns (bytes32 key) {
        TokenTransfers.pull(tokenIn == address(0) ? weth : tokenIn, msg.sender, amountIn);
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
        bytes32 payloadHash = params.payloadType == PAYLOAD_TYPE_CUSTOM ? keccak256(customPayload) : bytes32(0);
        key = keccak256(abi.encode(params, tokenIn, amountIn, block.chainid, payloadHash));
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

    /// V2: only a chain with a registered emitter, never this one; the sandbox's are its three chains.
    function _servesDestination(uint16 destChainId) internal view override returns (bool) {
        uint16 own = _wormholeChainId(block.chainid);
        return destChainId != own && (destChainId == 2 || destChainId == 30 || destChainId == 23);
    }
}
