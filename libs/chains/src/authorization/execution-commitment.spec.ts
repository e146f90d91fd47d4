import { type ChainAction, type ChainCall } from '@svc/contract';
import { concat, keccak256 } from 'viem';
import { encodeCallsByHand, type PlainCall } from './encode-calls-by-hand.spec-helper';
import { executionCommitment } from './execution-commitment';
import { ExecutionCommitmentError } from './execution-commitment.error';

const WETH_BASE = '0x4200000000000000000000000000000000000006';
const ROUTER = '0x1111111254EEB25477B68fb85Ed929f73A960582';
const TOKEN = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const RECEIVER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
// 40 bytes: crosses a word boundary, so the right padding of `bytes` is exercised.
const SWAP_DATA = `0x12aa3caf${'ab'.repeat(36)}`;

function call(callIndex: number, to: string, value: string, data: string, chainId: number): ChainCall {
  return {
    to,
    value,
    data,
    callIndex,
    callId: `chain:${chainId}:call:${callIndex}`,
    quoteIndex: 0,
    gas: null,
  };
}

function action(chainId: number, submitMethod: ChainAction['submitMethod'], calls: ChainCall[]): ChainAction {
  const batched = submitMethod === 'wallet_sendCalls';
  return {
    chainId,
    provider: 'relay',
    submitMethod,
    atomicRequired: batched,
    calls: batched ? calls : null,
    transactions: batched ? null : calls.map((c) => ({ ...c, chainId })),
    transactionCount: batched ? 1 : calls.length,
    quoteCount: 1,
    quotePlans: [],
    perLegPreview: [],
  };
}

/** Ethereum: approve then swap, sequential; Base: wrap native ETH then a plain transfer of it, batched. */
function givenActions(): ChainAction[] {
  return [
    action(1, 'sendTransaction', [
      call(0, TOKEN, '0', `0x095ea7b3${'00'.repeat(64)}`, 1),
      call(1, ROUTER, '0', SWAP_DATA, 1),
    ]),
    action(8453, 'wallet_sendCalls', [
      call(0, WETH_BASE, '2500000000000000', '0xd0e30db0', 8453),
      call(1, RECEIVER, '1000000000000000000', '0x', 8453),
    ]),
  ];
}

const expectedOrder: PlainCall[] = [
  { chainId: 1, to: TOKEN, value: '0', data: `0x095ea7b3${'00'.repeat(64)}` },
  { chainId: 1, to: ROUTER, value: '0', data: SWAP_DATA },
  { chainId: 8453, to: WETH_BASE, value: '2500000000000000', data: '0xd0e30db0' },
  { chainId: 8453, to: RECEIVER, value: '1000000000000000000', data: '0x' },
];

function byHand(calls: PlainCall[]) {
  return keccak256(concat(encodeCallsByHand(calls)));
}

function callsOf(a: ChainAction): ChainCall[] {
  return (a.calls ?? a.transactions)!;
}

describe('executionCommitment', () => {
  const baseline = executionCommitment(givenActions());

  it('is keccak256 of the ABI-encoded (chainId, to, value, data)[] of every call, actions then callIndex', () => {
    expect(baseline).toBe(byHand(expectedOrder));
  });

  it('orders calls by callIndex, not by their position in the array', () => {
    const actions = givenActions();
    for (const a of actions) {
      if (a.calls) a.calls.reverse();
      else a.transactions!.reverse();
    }
    expect(executionCommitment(actions)).toBe(baseline);
  });

  it('does not depend on the case of `to`', () => {
    const actions = givenActions();
    for (const c of actions.flatMap(callsOf)) c.to = `0x${c.to.slice(2).toUpperCase()}`;
    expect(executionCommitment(actions)).toBe(baseline);
    for (const c of actions.flatMap(callsOf)) c.to = c.to.toLowerCase();
    expect(executionCommitment(actions)).toBe(baseline);
  });

  it('commits to no calls at all as the empty array', () => {
    expect(executionCommitment([])).toBe(byHand([]));
  });

  describe('changes when any bound field changes', () => {
    const mutations: [string, (actions: ChainAction[]) => void][] = [
      ['a chain id', (a) => (a[1].chainId = 10)],
      ['a to', (a) => (callsOf(a[0])[1].to = TOKEN)],
      ['a value', (a) => (callsOf(a[1])[1].value = '1000000000000000001')],
      ['a value of an empty-data call to zero', (a) => (callsOf(a[1])[1].value = '0')],
      ['data, by one byte', (a) => (callsOf(a[0])[1].data = `${SWAP_DATA.slice(0, -2)}ac`)],
      ['data, from empty to one zero byte', (a) => (callsOf(a[1])[1].data = '0x00')],
      [
        'the call order within an action',
        (a) => callsOf(a[1]).forEach((c) => (c.callIndex = 1 - c.callIndex)),
      ],
      ['the action order', (a) => a.reverse()],
      ['a call dropped', (a) => callsOf(a[1]).pop()],
    ];
    it.each(mutations)('%s', (_, mutate) => {
      const actions = givenActions();
      mutate(actions);
      expect(executionCommitment(actions)).not.toBe(baseline);
    });
  });

  describe('refuses calls it cannot encode unambiguously', () => {
    const broken: [string, (actions: ChainAction[]) => void][] = [
      ['wallet_sendCalls without calls', (a) => (a[1].calls = null)],
      ['sendTransaction without transactions', (a) => (a[0].transactions = null)],
      ['a transaction on another chain than its action', (a) => (a[0].transactions![0].chainId = 10)],
      ['a hex value', (a) => (callsOf(a[0])[0].value = '0x10')],
      ['a decimal fraction', (a) => (callsOf(a[0])[0].value = '1.5')],
      ['a value above uint256', (a) => (callsOf(a[0])[0].value = (2n ** 256n).toString())],
      ['a to that is not an address', (a) => (callsOf(a[0])[0].to = '0x1234')],
      ['data of half a byte', (a) => (callsOf(a[0])[0].data = '0xabc')],
      ['data without 0x', (a) => (callsOf(a[1])[1].data = '')],
      ['a repeated callIndex', (a) => (callsOf(a[1])[1].callIndex = 0)],
    ];
    it.each(broken)('%s', (_, breakIt) => {
      const actions = givenActions();
      breakIt(actions);
      expect(() => executionCommitment(actions)).toThrow(ExecutionCommitmentError);
    });
  });
});
