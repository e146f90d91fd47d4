import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  pad,
  parseAbi,
  zeroHash,
} from 'viem';
import { acrossSpokePoolEventsAbi } from '../across/across-deposit-refs';
import { createProviderAdapters } from '../create-provider-adapters';
import { type FillReceiptLog } from '../fill-record';
import { mayanOrderFulfilledAbi } from '../mayan/mayan-fill-record';
import { mayanSwiftOrderCreatedAbi } from '../mayan/mayan-order-refs';
import { type ReceiptLog } from '../provider-adapter.port';
import { type TrackingContext } from '../provider-quote';
import { loadProvidersConfig } from '../providers-config';

/** Across's SpokePool on Ethereum (vouch/across-contracts.ts, across-protocol/contracts deployed-addresses.json). */
const SPOKE_POOL: Address = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const SWIFT: Address = '0xc38e4e6a15593f908255214653d3d947ca1c2338';
const LOOKALIKE: Address = '0x000000000000000000000000000000000000dead';
const USDC_BASE: Address = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913';
const RECIPIENT: Address = '0x00000000000000000000000000000000000000aa';
const KEY_A: Hex = `0x${'aa'.repeat(32)}`;
const KEY_B: Hex = `0x${'bb'.repeat(32)}`;

const adapters = createProviderAdapters(loadProvidersConfig({}));
const ACROSS: TrackingContext = { provider: 'across', originChainId: 1, destinationChainId: 8453 };
const MAYAN: Extract<TrackingContext, { provider: 'mayan' }> = {
  provider: 'mayan',
  fromChain: 'ethereum',
  toChain: 'base',
  targetDecimals: 6,
  swiftContract: SWIFT,
};
const { swiftContract: _older, ...MAYAN_OLDER } = MAYAN;

/** A FundsDeposited as the SpokePool emits it (depositId the second indexed field), from `emitter`. */
function fundsDeposited(emitter: Address, depositId: bigint): ReceiptLog {
  return {
    address: emitter,
    topics: encodeEventTopics({
      abi: acrossSpokePoolEventsAbi,
      eventName: 'FundsDeposited',
      args: { destinationChainId: 8453n, depositId, depositor: pad(RECIPIENT) },
    }) as Hex[],
    data: encodeAbiParameters(
      [
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'uint32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes' },
      ],
      [zeroHash, zeroHash, 1n, 1n, 1, 1_767_985_475, 0, pad(RECIPIENT), zeroHash, '0x'],
    ),
  };
}
const orderCreated = (emitter: Address, key: Hex): ReceiptLog => ({
  address: emitter,
  topics: encodeEventTopics({ abi: mayanSwiftOrderCreatedAbi, eventName: 'OrderCreated' }) as Hex[],
  data: encodeAbiParameters([{ type: 'bytes32' }], [key]),
});

describe("deposit refs count only the provider's own contracts' events (providers review N12)", () => {
  it('across: a look-alike FundsDeposited of another contract in the same transaction shifts no index', () => {
    const logs = [fundsDeposited(LOOKALIKE, 999n), fundsDeposited(SPOKE_POOL, 7n)];
    expect(adapters.across.depositRefs(logs, { chainId: 1, context: ACROSS })).toEqual(['7']);
    expect(adapters.across.depositTerms?.(logs, { chainId: 1, context: ACROSS })).toHaveLength(1);
    // Without a scope (a caller that names no chain), every log is read as before.
    expect(adapters.across.depositRefs(logs)).toEqual(['999', '7']);
  });

  it("mayan: only the quote's Swift contract's OrderCreated; a leg stored without it is read as before", () => {
    const logs = [orderCreated(LOOKALIKE, KEY_A), orderCreated(SWIFT, KEY_B)];
    expect(adapters.mayan.depositRefs(logs, { chainId: 1, context: MAYAN })).toEqual([KEY_B]);
    expect(adapters.mayan.depositRefs(logs, { chainId: 1, context: MAYAN_OLDER })).toEqual([KEY_A, KEY_B]);
  });

  it("mayan: the destination Swift's OrderFulfilled is the provider's record (the allowlist lists only the forwarder)", () => {
    const transfer: FillReceiptLog = {
      address: USDC_BASE,
      topics: encodeEventTopics({
        abi: parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']),
        eventName: 'Transfer',
        args: { from: SWIFT, to: RECIPIENT },
      }) as Hex[],
      data: pad('0x3e8', { size: 32 }),
      logIndex: 0,
    };
    const fulfilled: FillReceiptLog = {
      address: SWIFT,
      topics: encodeEventTopics({ abi: mayanOrderFulfilledAbi, eventName: 'OrderFulfilled' }) as Hex[],
      data: encodeAbiParameters(
        [{ type: 'bytes32' }, { type: 'uint64' }, { type: 'uint256' }],
        [KEY_B, 1n, 1000n],
      ),
      logIndex: 1,
    };
    const query = {
      chainId: 8453,
      logs: [transfer, fulfilled],
      tx: { to: SWIFT, input: '0x' as Hex, value: 0n },
      deposit: { index: 0, ref: KEY_B },
      recipient: RECIPIENT,
      token: USDC_BASE,
    };
    expect(adapters.mayan.fillRecord?.(MAYAN, query)).toMatchObject({ kind: 'found', amount: 1000n });
    // A leg stored without its Swift contract: the allowlist alone, which does not list it.
    expect(adapters.mayan.fillRecord?.(MAYAN_OLDER, query)).toEqual({ kind: 'none' });
  });
});
