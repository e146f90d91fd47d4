import {
  decodeAbiParameters,
  getAddress,
  hexToBigInt,
  parseAbiParameters,
  slice,
  size,
  toFunctionSelector,
  type Hex,
} from 'viem';
import type { ExecutedCall } from './match-prepared-calls';

export type BatchedCalls = { supported: true; calls: ExecutedCall[] } | { supported: false; reason: string };

const CALLS = parseAbiParameters('(address target, uint256 value, bytes data)[] calls');
const CALLS_WITH_OP_DATA = parseAbiParameters(
  '(address target, uint256 value, bytes data)[] calls, bytes opData',
);
const SINGLE = parseAbiParameters('address target, uint256 value, bytes data');
const MODE_AND_DATA = parseAbiParameters('bytes32 mode, bytes executionData');

const EXECUTE_BATCH = toFunctionSelector('executeBatch((address,uint256,bytes)[])');
const EXECUTE_CALLS = toFunctionSelector('execute((address,uint256,bytes)[])');
const EXECUTE_MODE = toFunctionSelector('execute(bytes32,bytes)');
const EXECUTE_SINGLE = toFunctionSelector('execute(address,uint256,bytes)');

/**
 * The calls that a smart account's calldata tells it to run, for the standard entry points of EIP-7702 delegates:
 * - `executeBatch((address,uint256,bytes)[])` (Coinbase Smart Wallet, eth-infinitism Simple7702Account) and
 *   `execute((address,uint256,bytes)[])`;
 * - `execute(address,uint256,bytes)`: one call;
 * - ERC-7821 / ERC-7579 `execute(bytes32 mode, bytes executionData)` with the default exec type (a failing call
 *   reverts the batch): batch call type without or with ERC-7821 opData (what viem's erc7821 encodes), and ERC-7579
 *   single call type (packed target, value, calldata).
 * Not supported: ERC-7579 try mode (a failed call does not revert the transaction, so a successful receipt would
 * not prove the calls ran), delegatecall and staticcall call types, ERC-7821 batch of batches, any other selector.
 * This reads the calldata only: it trusts the delegate to implement these entry points as their standards say.
 */
export function decodeBatchedCalls(calldata: Hex): BatchedCalls {
  const data = calldata.toLowerCase() as Hex;
  if (size(data) < 4) return unsupported('no function selector');
  const selector = slice(data, 0, 4);
  const args: Hex = `0x${data.slice(10)}`;
  try {
    switch (selector) {
      case EXECUTE_BATCH:
      case EXECUTE_CALLS:
        return { supported: true, calls: decodeAbiParameters(CALLS, args)[0].map(toCall) };
      case EXECUTE_SINGLE: {
        const [target, value, callData] = decodeAbiParameters(SINGLE, args);
        return { supported: true, calls: [toCall({ target, value, data: callData })] };
      }
      case EXECUTE_MODE:
        return decodeModeExecution(...decodeAbiParameters(MODE_AND_DATA, args));
      default:
        return unsupported(`unknown entry point ${selector}`);
    }
  } catch {
    return unsupported('undecodable calldata');
  }
}

// ERC-7579 mode: call type (1 byte), exec type (1), unused (4), mode selector (4), payload (22).
function decodeModeExecution(mode: Hex, executionData: Hex): BatchedCalls {
  const callType = slice(mode, 0, 1);
  const execType = slice(mode, 1, 2);
  const modeSelector = slice(mode, 6, 10);
  if (execType !== '0x00') return unsupported(`execution mode ${mode} does not revert on a failed call`);
  if (callType === '0x01' && modeSelector === '0x00000000') {
    return { supported: true, calls: decodeAbiParameters(CALLS, executionData)[0].map(toCall) };
  }
  if (callType === '0x01' && modeSelector === '0x78210001') {
    return { supported: true, calls: decodeAbiParameters(CALLS_WITH_OP_DATA, executionData)[0].map(toCall) };
  }
  if (callType === '0x00' && modeSelector === '0x00000000' && size(executionData) >= 52) {
    const call = {
      target: getAddress(slice(executionData, 0, 20)),
      value: hexToBigInt(slice(executionData, 20, 52)),
      data: size(executionData) > 52 ? slice(executionData, 52) : '0x',
    } as const;
    return { supported: true, calls: [toCall(call)] };
  }
  return unsupported(`unsupported execution mode ${mode}`);
}

function toCall({ target, value, data }: { target: Hex; value: bigint; data: Hex }): ExecutedCall {
  return { to: getAddress(target), value, data };
}

function unsupported(reason: string): BatchedCalls {
  return { supported: false, reason };
}
