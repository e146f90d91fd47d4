import { type AbiParameter, type Address, encodeAbiParameters, encodeEventTopics, type Hex, pad } from 'viem';
import { type ReceiptLog } from '../provider-adapter.port';
import { acrossSpokePoolEventsAbi } from './across-deposit-refs';
import { acrossIndexedDeposits, cctpBurnEventsAbi, cctpIndexOf } from './across-indexed-deposits';

/** The event's data fields: every input but the indexed ones. */
const nonIndexed = (inputs: readonly AbiParameter[]) =>
  inputs.filter((input) => !('indexed' in input && input.indexed === true));

const POOL: Address = '0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5';
const TOKEN_MESSENGER: Address = '0x28b5a0e9C621a5BadaA536219b3a228C8168cf5d';
const USDC: Address = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const WALLET: Address = '0x00000000000000000000000000000000000000aa';
const b32 = (a: Address): Hex => pad(a, { size: 32 });

/** A SpokePool `FundsDeposited` (V3SpokePoolInterface.sol), only its indexed depositId mattering here. */
function fundsDeposited(depositId: bigint): ReceiptLog {
  const event = acrossSpokePoolEventsAbi[0];
  return {
    address: POOL,
    topics: encodeEventTopics({
      abi: [event],
      eventName: 'FundsDeposited',
      args: { destinationChainId: 8453n, depositId, depositor: b32(WALLET) },
    }) as Hex[],
    data: encodeAbiParameters(nonIndexed(event.inputs), [
      b32(USDC),
      b32(USDC),
      10n,
      9n,
      0,
      0,
      0,
      b32(WALLET),
      b32(WALLET),
      '0x',
    ]),
  };
}

/** TokenMessengerV2's `DepositForBurn` as Across's indexer decodes it (indexer data-indexing/model/abis.ts). */
function depositForBurn(amount: bigint): ReceiptLog {
  const event = cctpBurnEventsAbi[0];
  return {
    address: TOKEN_MESSENGER,
    topics: encodeEventTopics({
      abi: [event],
      eventName: 'DepositForBurn',
      args: { burnToken: USDC, depositor: WALLET, minFinalityThreshold: 2000 },
    }) as Hex[],
    data: encodeAbiParameters(nonIndexed(event.inputs), [
      amount,
      b32(WALLET),
      6,
      b32(TOKEN_MESSENGER),
      b32(WALLET),
      0n,
      '0x',
    ]),
  };
}

const transfer: ReceiptLog = { address: USDC, topics: [], data: '0x' };

describe('acrossIndexedDeposits: the indexer index of a CCTP leg (issue 24 item 1, providers review N3)', () => {
  it('a CCTP burn before a SpokePool deposit: call order kept, the burn indexed after every intent deposit', () => {
    // The batch's legs in call order: CCTP, SpokePool. The indexer answers index 0 = the SpokePool deposit.
    const refs = acrossIndexedDeposits([transfer, depositForBurn(5n), transfer, fundsDeposited(77n)]);
    expect(refs).toEqual(['cctp:1', '77']);
    expect(refs.map(cctpIndexOf)).toEqual([1, null]);
  });

  it('two burns and two deposits interleaved: intents 0..1 by their ids, burns 2 and 3 in their order', () => {
    const logs = [fundsDeposited(1n), depositForBurn(2n), fundsDeposited(3n), depositForBurn(4n)];
    expect(acrossIndexedDeposits(logs)).toEqual(['1', 'cctp:2', '3', 'cctp:3']);
  });

  it('SpokePool deposits only: their depositIds, as before', () => {
    expect(acrossIndexedDeposits([fundsDeposited(5n), transfer, fundsDeposited(6n)])).toEqual(['5', '6']);
  });

  it('CCTP V1 burns count too', () => {
    const v1 = cctpBurnEventsAbi[1];
    const burn: ReceiptLog = {
      address: TOKEN_MESSENGER,
      topics: encodeEventTopics({
        abi: [v1],
        eventName: 'DepositForBurn',
        args: { nonce: 9n, burnToken: USDC, depositor: WALLET },
      }) as Hex[],
      data: encodeAbiParameters(nonIndexed(v1.inputs), [
        1n,
        b32(WALLET),
        6,
        b32(TOKEN_MESSENGER),
        b32(WALLET),
      ]),
    };
    expect(acrossIndexedDeposits([burn, fundsDeposited(8n)])).toEqual(['cctp:1', '8']);
  });

  it('a ref that is not a CCTP one has no CCTP index', () => {
    expect([cctpIndexOf(null), cctpIndexOf('12'), cctpIndexOf('cctp:x')]).toEqual([null, null, null]);
  });
});
