// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Multicall3's `tryAggregate` (mds1/multicall src/Multicall3.sol, deployed at 0xcA11bde05977b3631167028862bE2a173976CA11
/// on mainnets), which Across's finalizer sends its batched CCTP `receiveMessage` calls through
/// (across-protocol/relayer src/finalizer/index.ts: `method: "tryAggregate", args: [false, calls]`).
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }
}
