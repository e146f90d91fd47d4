import { parseAbi } from 'viem';

/**
 * The Mayan Forwarder: the spender of approvals and the `to` of every Mayan transaction
 * (swap-sdk src/evm/MayanForwarderArtifact.ts; source: mayan-finance/swap-bridge src/MayanForwarder.sol).
 */
export const mayanForwarderAbi = parseAbi([
  'struct PermitParams { uint256 value; uint256 deadline; uint8 v; bytes32 r; bytes32 s; }',
  'function forwardERC20(address tokenIn, uint256 amountIn, PermitParams permitParams, address mayanProtocol, bytes protocolData) payable',
  'function forwardEth(address mayanProtocol, bytes protocolData) payable',
  'function swapAndForwardEth(uint256 amountIn, address swapProtocol, bytes swapData, address middleToken, uint256 minMiddleAmount, address mayanProtocol, bytes mayanData) payable',
]);

/** Swift V1 (`swiftVersion` "V1" or absent): swap-sdk src/evm/MayanSwiftArtifact.ts. */
export const mayanSwiftV1Abi = parseAbi([
  'struct OrderParams { bytes32 trader; bytes32 tokenOut; uint64 minAmountOut; uint64 gasDrop; uint64 cancelFee; uint64 refundFee; uint64 deadline; bytes32 destAddr; uint16 destChainId; bytes32 referrerAddr; uint8 referrerBps; uint8 auctionMode; bytes32 random; }',
  'function createOrderWithToken(address tokenIn, uint256 amountIn, OrderParams params) returns (bytes32 orderHash)',
  'function createOrderWithEth(OrderParams params) payable returns (bytes32 orderHash)',
]);

/**
 * Swift V2 (`swiftVersion` "V2"): the same fields reordered, a payload type, and a custom payload argument
 * (swap-sdk src/evm/MayanSwiftV2Artifact.ts). The artifact still lists createOrderWithEth, but the SDK never calls it
 * for V2 since v13.0.0: native input goes through wrap-and-lock (swift-calls.ts).
 */
export const mayanSwiftV2Abi = parseAbi([
  'struct OrderParams { uint8 payloadType; bytes32 trader; bytes32 destAddr; uint16 destChainId; bytes32 referrerAddr; bytes32 tokenOut; uint64 minAmountOut; uint64 gasDrop; uint64 cancelFee; uint64 refundFee; uint64 deadline; uint8 referrerBps; uint8 auctionMode; bytes32 random; }',
  'function createOrderWithToken(address tokenIn, uint256 amountIn, OrderParams params, bytes customPayload) returns (bytes32 orderHash)',
]);
