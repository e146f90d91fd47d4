// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Erc20} from "./Erc20.sol";

/// A plain ERC-20 for the sandbox (USDC, WETH). Anyone may mint: it is a test token. `burn` destroys the caller's
/// own tokens, as USDC's `burn` does for a minter (the sandbox TokenMessengerV2 burns what a `depositForBurn` pulls).
contract TestToken is Erc20 {
    constructor(string memory name_, string memory symbol_, uint8 decimals_) Erc20(name_, symbol_, decimals_) {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function burn(uint256 amount) external {
        _burn(msg.sender, amount);
    }
}
