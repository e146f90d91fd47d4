// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// SafeERC20-style calls: accept tokens that return nothing, bubble up the token's own revert data.
library TokenTransfers {
    error TokenCallFailed(address token);

    function pull(address token, address from, uint256 amount) internal {
        _call(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", from, address(this), amount));
    }

    function pullTo(address token, address from, address to, uint256 amount) internal {
        _call(token, abi.encodeWithSignature("transferFrom(address,address,uint256)", from, to, amount));
    }

    /// Approves `amount`, resetting a non-zero allowance to 0 first so USDT-like tokens accept it.
    function forceApprove(address token, address spender, uint256 amount) internal {
        (bool ok, bytes memory ret) = token.staticcall(
            abi.encodeWithSignature("allowance(address,address)", address(this), spender)
        );
        if (ok && ret.length == 32 && abi.decode(ret, (uint256)) != 0) {
            _call(token, abi.encodeWithSignature("approve(address,uint256)", spender, 0));
        }
        _call(token, abi.encodeWithSignature("approve(address,uint256)", spender, amount));
    }

    function _call(address token, bytes memory data) private {
        if (token.code.length == 0) revert TokenCallFailed(token);
        (bool ok, bytes memory ret) = token.call(data);
        if (!ok && ret.length != 0) {
            assembly {
                revert(add(ret, 32), mload(ret))
            }
        }
        if (!ok || (ret.length != 0 && !abi.decode(ret, (bool)))) revert TokenCallFailed(token);
    }
}
