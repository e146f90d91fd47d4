// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {TokenTransfers} from "./TokenTransfers.sol";

interface IWrappedNative {
    function withdraw(uint256 wad) external;
}

/// The deposit side of Across's SpokePool (`depositV3`). Native deposits name the chain's wrapped native token as
/// the input token and send the amount as value; the pool keeps the ETH (the sandbox WETH cannot wrap). Thirteen
/// event fields are too deep a stack for the legacy code generator: the build uses via-IR, as Across does.
/// The fill side (`fillRelay`, `multicall`) is the real pool's, as the relayer drives it: `fillRelay` emits
/// `FilledRelay` and then pulls the output token from the relayer to the recipient; `multicall` runs several fills in
/// one transaction (across-protocol/contracts contracts/spoke-pools/SpokePool.sol `fillRelay`, `_fillRelayV3`;
/// contracts/upgradeable/MultiCallerUpgradeable.sol; across-protocol/relayer src/clients/MultiCallerClient.ts).
/// A WETH output to an EOA or an EIP-7702 wallet is unwrapped and paid as ETH, as the real pool does
/// (`_unwrapwrappedNativeTokenTo`), unless the deposit carries a message (the handler route: WETH). No exclusivity, fill deadline, slow fill or message handler.
contract AcrossSpokePool {
    address public immutable wrappedNativeToken;
    uint32 public numberOfDeposits;
    mapping(bytes32 => bool) public filledRelays;

    /// contracts/interfaces/V3SpokePoolInterface.sol `V3RelayData`.
    struct V3RelayData {
        bytes32 depositor;
        bytes32 recipient;
        bytes32 exclusiveRelayer;
        bytes32 inputToken;
        bytes32 outputToken;
        uint256 inputAmount;
        uint256 outputAmount;
        uint256 originChainId;
        uint256 depositId;
        uint32 fillDeadline;
        uint32 exclusivityDeadline;
        bytes message;
    }

    struct V3RelayExecutionEventInfo {
        bytes32 updatedRecipient;
        bytes32 updatedMessageHash;
        uint256 updatedOutputAmount;
        uint8 fillType;
    }

    event FilledRelay(
        bytes32 inputToken,
        bytes32 outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 repaymentChainId,
        uint256 indexed originChainId,
        uint256 indexed depositId,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        bytes32 exclusiveRelayer,
        bytes32 indexed relayer,
        bytes32 depositor,
        bytes32 recipient,
        bytes32 messageHash,
        V3RelayExecutionEventInfo relayExecutionInfo
    );

    event V3FundsDeposited(
        address inputToken,
        address outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 indexed destinationChainId,
        uint32 indexed depositId,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        address indexed depositor,
        address recipient,
        address exclusiveRelayer,
        bytes message
    );

    error MsgValueDoesNotMatchInputAmount();
    error RelayFilled();
    error NativePaymentFailed();

    /// SpokePool.sol `EIP7702_PREFIX`: the code of an EIP-7702 delegated account starts with it.
    bytes3 internal constant EIP7702_PREFIX = 0xef0100;

    constructor(address wrappedNativeToken_) {
        wrappedNativeToken = wrappedNativeToken_;
    }

    function depositV3(
        address depositor,
        address recipient,
        address inputToken,
        address outputToken,
        uint256 inputAmount,
        uint256 outputAmount,
        uint256 destinationChainId,
        address exclusiveRelayer,
        uint32 quoteTimestamp,
        uint32 fillDeadline,
        uint32 exclusivityDeadline,
        bytes calldata message
    ) external payable {
        if (inputToken == wrappedNativeToken && msg.value != 0) {
            if (msg.value != inputAmount) revert MsgValueDoesNotMatchInputAmount();
        } else {
            if (msg.value != 0) revert MsgValueDoesNotMatchInputAmount();
            TokenTransfers.pull(inputToken, msg.sender, inputAmount);
        }
        emit V3FundsDeposited(
            inputToken,
            outputToken,
            inputAmount,
            outputAmount,
            destinationChainId,
            numberOfDeposits++,
            quoteTimestamp,
            fillDeadline,
            exclusivityDeadline,
            depositor,
            recipient,
            exclusiveRelayer,
            message
        );
    }

    function fillRelay(V3RelayData calldata relayData, uint256 repaymentChainId, bytes32 repaymentAddress) public {
        repaymentAddress;
        bytes32 relayHash = keccak256(abi.encode(relayData, block.chainid));
        if (filledRelays[relayHash]) revert RelayFilled();
        filledRelays[relayHash] = true;
        emit FilledRelay(
            relayData.inputToken,
            relayData.outputToken,
            relayData.inputAmount,
            relayData.outputAmount,
            repaymentChainId,
            relayData.originChainId,
            relayData.depositId,
            relayData.fillDeadline,
            relayData.exclusivityDeadline,
            relayData.exclusiveRelayer,
            bytes32(uint256(uint160(msg.sender))),
            relayData.depositor,
            relayData.recipient,
            relayData.message.length == 0 ? bytes32(0) : keccak256(relayData.message),
            V3RelayExecutionEventInfo({
                updatedRecipient: relayData.recipient,
                updatedMessageHash: relayData.message.length == 0 ? bytes32(0) : keccak256(relayData.message),
                updatedOutputAmount: relayData.outputAmount,
                fillType: 0
            })
        );
        address outputToken = address(uint160(uint256(relayData.outputToken)));
        address recipient = address(uint160(uint256(relayData.recipient)));
        // The sandbox has no MulticallHandler: a deposit with a message is the Swap API's handler route (an app fee,
        // a destination action), whose real recipient is the handler, a contract, paid WETH and draining WETH to the
        // user by the message's calls (frontend api/_dexes/utils.ts). The sandbox pays the user directly, in WETH.
        if (outputToken == wrappedNativeToken && relayData.message.length == 0 && _paidAsNative(recipient)) {
            // SpokePool._transferTokensToRecipient / _unwrapwrappedNativeTokenTo: a WETH output to an EOA or an
            // EIP-7702 wallet is pulled into the pool, unwrapped and sent as ETH (providers review S16, N7).
            TokenTransfers.pullTo(outputToken, msg.sender, address(this), relayData.outputAmount);
            IWrappedNative(outputToken).withdraw(relayData.outputAmount);
            (bool ok, ) = payable(recipient).call{value: relayData.outputAmount}("");
            if (!ok) revert NativePaymentFailed();
        } else {
            TokenTransfers.pullTo(outputToken, msg.sender, recipient, relayData.outputAmount);
        }
    }

    /// SpokePool._unwrapwrappedNativeTokenTo's rule: ETH unless the recipient is a contract that is not a 7702 wallet.
    function _paidAsNative(address account) private view returns (bool) {
        return account.code.length == 0 || bytes3(account.code) == EIP7702_PREFIX;
    }

    /// The ETH the wrapped native token sends back on withdraw.
    receive() external payable {}

    /// MultiCallerUpgradeable.multicall: each call a delegatecall into this pool, all or nothing.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; ++i) {
            (bool success, bytes memory result) = address(this).delegatecall(data[i]);
            if (!success) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }
}
