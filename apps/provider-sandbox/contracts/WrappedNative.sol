// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Erc20} from "./Erc20.sol";

/// The sandbox WETH: a test token anyone may mint, that also wraps and unwraps like WETH9 (`deposit`, `withdraw`,
/// with WETH9's `Deposit` and `Withdrawal` events), so the sandbox can pay a WETH output as ETH the way Across's
/// SpokePool does (`wrappedNativeToken.withdraw` then `sendValue`). Only ETH deposited can be withdrawn: minted
/// tokens have no ETH behind them.
contract WrappedNative is Erc20 {
    event Deposit(address indexed dst, uint256 wad);
    event Withdrawal(address indexed src, uint256 wad);

    error WithdrawFailed(address to, uint256 wad);

    constructor(string memory name_, string memory symbol_, uint8 decimals_) Erc20(name_, symbol_, decimals_) {}

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function deposit() public payable {
        balanceOf[msg.sender] += msg.value;
        totalSupply += msg.value;
        emit Deposit(msg.sender, msg.value);
    }

    /// WETH9's withdraw: burns without a Transfer event, emits Withdrawal, sends the ETH to the caller.
    function withdraw(uint256 wad) external {
        uint256 balance = balanceOf[msg.sender];
        if (balance < wad) revert ERC20InsufficientBalance(msg.sender, balance, wad);
        unchecked {
            balanceOf[msg.sender] = balance - wad;
        }
        totalSupply -= wad;
        emit Withdrawal(msg.sender, wad);
        (bool ok, ) = payable(msg.sender).call{value: wad}("");
        if (!ok) revert WithdrawFailed(msg.sender, wad);
    }

    receive() external payable {
        deposit();
    }
}
