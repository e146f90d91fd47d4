// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Erc20} from "./Erc20.sol";

/// USDT's allowance quirk: moving an allowance from one non-zero value to another reverts (with no reason, like
/// the real contract), so integrations must reset it to 0 first. Anyone may mint: it is a test token.
contract TetherToken is Erc20 {
    constructor() Erc20("Tether USD", "USDT", 6) {}

    function approve(address spender, uint256 value) public override returns (bool) {
        require(value == 0 || allowance[msg.sender][spender] == 0);
        return super.approve(spender, value);
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }
}
