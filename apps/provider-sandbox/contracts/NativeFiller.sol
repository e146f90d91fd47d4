// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IWrappedNative {
    function deposit() external payable;
    function withdraw(uint256 wad) external;
}

/// Pays native fills from inside a contract, as the providers' fill contracts do, so the value reaches the
/// recipient by an internal call that only a trace shows (providers review S15, S16):
/// - `payNative`: the value sent, passed on by `call{value}` (Across's SpokePool `sendValue`, Mayan's Swift `payEth`);
/// - `payWrappedAsNative`: a WETH output paid as ETH, wrapped then unwrapped and sent on, as the SpokePool does for an
///   EOA or an EIP-7702 wallet (across-protocol/contracts contracts/spoke-pools/SpokePool.sol
///   `_unwrapwrappedNativeTokenTo`: `wrappedNativeToken.withdraw(amount)` then `sendValue(to, amount)`).
/// Emits nothing of its own: like the real payouts, the receipt shows no log of the value paid.
contract NativeFiller {
    error PaymentFailed(address to, uint256 amount);

    function payNative(address payable to) external payable {
        _send(to, msg.value);
    }

    function payWrappedAsNative(address weth, address payable to) external payable {
        IWrappedNative(weth).deposit{value: msg.value}();
        IWrappedNative(weth).withdraw(msg.value);
        _send(to, msg.value);
    }

    /// The ETH the wrapped token sends back on withdraw.
    receive() external payable {}

    function _send(address payable to, uint256 amount) private {
        (bool ok, ) = to.call{value: amount}("");
        if (!ok) revert PaymentFailed(to, amount);
    }
}
