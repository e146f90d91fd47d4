// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @notice The OP-stack GasPriceOracle predeploy (0x420000000000000000000000000000000000000F) as Base answers it
/// after Ecotone, for the sandbox's chain 8453. Same function signatures and Ecotone formula as
/// ethereum-optimism/optimism packages/contracts-bedrock/src/L2/GasPriceOracle.sol (`_getL1FeeEcotone`,
/// `_getCalldataGas`); the real one reads its inputs from the L1Block predeploy, this one from its own storage, which
/// the sandbox writes with anvil_setStorageAt (slot 0: isEcotone, isFjord; 1: l1BaseFee; 2: blobBaseFee;
/// 3: baseFeeScalar; 4: blobBaseFeeScalar). Installed with anvil_setCode, so no constructor runs.
contract GasPriceOracle {
    uint256 public constant DECIMALS = 6;
    string public constant version = "1.3.1-beta.3";

    bool public isEcotone;
    bool public isFjord;
    uint256 private _l1BaseFee;
    uint256 private _blobBaseFee;
    uint256 private _baseFeeScalar;
    uint256 private _blobBaseFeeScalar;

    /// @param _data Unsigned fully RLP-encoded transaction; 68 bytes of padding stand for the missing signature.
    function getL1Fee(bytes memory _data) external view returns (uint256) {
        uint256 l1GasUsed = _getCalldataGas(_data);
        uint256 scaledBaseFee = _baseFeeScalar * 16 * _l1BaseFee;
        uint256 scaledBlobBaseFee = _blobBaseFeeScalar * _blobBaseFee;
        return (l1GasUsed * (scaledBaseFee + scaledBlobBaseFee)) / (16 * 10 ** DECIMALS);
    }

    function getL1GasUsed(bytes memory _data) external pure returns (uint256) {
        return _getCalldataGas(_data);
    }

    function gasPrice() external view returns (uint256) {
        return block.basefee;
    }

    function baseFee() external view returns (uint256) {
        return block.basefee;
    }

    function l1BaseFee() external view returns (uint256) {
        return _l1BaseFee;
    }

    function blobBaseFee() external view returns (uint256) {
        return _blobBaseFee;
    }

    function baseFeeScalar() external view returns (uint32) {
        return uint32(_baseFeeScalar);
    }

    function blobBaseFeeScalar() external view returns (uint32) {
        return uint32(_blobBaseFeeScalar);
    }

    function decimals() external pure returns (uint256) {
        return DECIMALS;
    }

    function _getCalldataGas(bytes memory _data) internal pure returns (uint256) {
        uint256 total = 0;
        for (uint256 i = 0; i < _data.length; i++) {
            total += _data[i] == 0 ? 4 : 16;
        }
        return total + (68 * 16);
    }
}
