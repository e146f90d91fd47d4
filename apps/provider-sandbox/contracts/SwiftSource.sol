// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// What the sandbox's Swift V1 and V2 share: the order checks of the real source contracts at creation
/// (mayan-finance/swap-bridge src/MayanSwift.sol for V1, branch swift-v2-forge src/swift/SwiftSource.sol for V2),
/// the order book and the extended OrderCreated event the sandbox watcher reads. Amounts are normalised to at most
/// 8 decimals, as Swift does. The real contracts check no deadline at creation either: a late order is never filled
/// and ends cancelled, which the sandbox filler plays.
abstract contract SwiftSource {
    uint8 internal constant NATIVE_DECIMALS = 18;

    mapping(bytes32 key => bool) public orders;

    /// The real event is `OrderCreated(bytes32 key)`; the sandbox adds the order's fields so its watcher needs no
    /// other source. Its topic therefore differs from the real one.
    event OrderCreated(
        bytes32 indexed key,
        address tokenIn,
        uint256 amountIn,
        bytes32 trader,
        bytes32 tokenOut,
        uint64 minAmountOut,
        bytes32 destAddr,
        uint16 destChainId,
        uint64 deadline,
        bytes32 random
    );

    error SmallAmountIn();
    error FeesTooHigh();
    error InvalidGasDrop();
    error InvalidBpsFee();
    error InvalidDestChain();
    error DuplicateOrder();

    struct Checked {
        uint256 amountIn;
        uint8 decimals;
        uint64 cancelFee;
        uint64 refundFee;
        bytes32 tokenOut;
        uint64 gasDrop;
        uint8 referrerBps;
        uint16 destChainId;
    }

    /// The real contracts' creation checks, in their order: a normalised amount of 0, fees that eat the whole input,
    /// a gas drop to native output, a referrer fee past the version's limit, a destination that is this chain or
    /// none Swift serves.
    function _check(Checked memory o, uint8 bpsFeeLimit) internal view {
        uint256 normalized = o.decimals > 8 ? o.amountIn / 10 ** (o.decimals - 8) : o.amountIn;
        if (normalized == 0) revert SmallAmountIn();
        if (uint256(o.cancelFee) + uint256(o.refundFee) >= normalized) revert FeesTooHigh();
        if (o.tokenOut == bytes32(0) && o.gasDrop != 0) revert InvalidGasDrop();
        if (o.referrerBps > bpsFeeLimit) revert InvalidBpsFee();
        if (!_servesDestination(o.destChainId)) revert InvalidDestChain();
    }

    function _servesDestination(uint16 destChainId) internal view virtual returns (bool);

    function _record(bytes32 key) internal {
        if (orders[key]) revert DuplicateOrder();
        orders[key] = true;
    }

    function _decimalsOf(address token) internal view returns (uint8) {
        if (token == address(0)) return NATIVE_DECIMALS;
        (bool ok, bytes memory ret) = token.staticcall(abi.encodeWithSignature("decimals()"));
        return ok && ret.length == 32 ? abi.decode(ret, (uint8)) : NATIVE_DECIMALS;
    }

    /// The Wormhole chain id of a sandbox chain (they keep their mainnet ids), 0 for any other.
    function _wormholeChainId(uint256 evmChainId) internal pure returns (uint16) {
        if (evmChainId == 1) return 2;
        if (evmChainId == 8453) return 30;
        if (evmChainId == 42161) return 23;
        if (evmChainId == 10) return 24;
        if (evmChainId == 137) return 5;
        return 0;
    }
}
