// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IMintable {
    function mint(address to, uint256 amount) external;
}

/// Stands in for the router that Mayan's `GET /get-swap/evm` names for a wrap-and-lock order (ETH in, WETH locked).
/// The sandbox WETH cannot wrap, so `wrap` mints the caller as much WETH as the ETH it receives and keeps the ETH;
/// the sandbox fillers pay refunds from their own funds.
contract MayanSwapRouter {
    function wrap(address weth) external payable {
        IMintable(weth).mint(msg.sender, msg.value);
    }
}
