// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Circle's CCTP domain of each sandbox chain, as Circle numbers them (developers.circle.com/cctp/supported-domains;
/// across-protocol/frontend api/_bridges/cctp/utils/constants.ts `getCctpDomainId`): Ethereum 0, Arbitrum 3, Base 6.
library CctpDomains {
    error NoCctpDomain(uint256 chainId);

    function domainOf(uint256 chainId) internal pure returns (uint32) {
        if (chainId == 1) return 0;
        if (chainId == 42161) return 3;
        if (chainId == 8453) return 6;
        revert NoCctpDomain(chainId);
    }
}

/// circlefin/evm-cctp-contracts src/interfaces/v2/IMessageHandlerV2.sol
interface IMessageHandlerV2 {
    function handleReceiveFinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);

    function handleReceiveUnfinalizedMessage(
        uint32 sourceDomain,
        bytes32 sender,
        uint32 finalityThresholdExecuted,
        bytes calldata messageBody
    ) external returns (bool);
}

/// circlefin/evm-cctp-contracts src/interfaces/v2/IRelayerV2.sol
interface IRelayerV2 {
    function sendMessage(
        uint32 destinationDomain,
        bytes32 recipient,
        bytes32 destinationCaller,
        uint32 minFinalityThreshold,
        bytes calldata messageBody
    ) external;
}
