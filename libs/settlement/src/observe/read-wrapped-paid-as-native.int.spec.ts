import { createPublicClient, encodeFunctionData, http, zeroAddress, type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_ACCOUNTS,
  NativeFillerArtifact,
  WrappedNativeArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  startTraceRefusingProxy,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { readSettledAmount } from './read-settled-amount';
import { readWrappedPaidAsNative, unwrappedAmount } from './read-wrapped-paid-as-native';

const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const solver = privateKeyToAccount(ANVIL_ACCOUNTS[5].privateKey);
// An EOA recipient: Across's SpokePool pays it ETH when the deposit's output token is WETH.
const recipient: Address = '0x000000000000000000000000000000000000bEEF';
const someoneElse: Address = '0x000000000000000000000000000000000000cafe';

/**
 * Native payouts made inside a contract, as the providers' fill contracts make them (providers review N6, N7; the
 * sandbox's NativeFiller and WrappedNative stand in for Across's SpokePool and WETH9): the value reaches the recipient
 * by an internal call, with no log of it in the receipt.
 */
describe('native payouts by internal call', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let weth: Address;
  let filler: Address;
  let wethAsEth: Hash;
  let wethAsEthElsewhere: Hash;
  let internalNative: Hash;

  const send = async (functionName: 'payNative' | 'payWrappedAsNative', to: Address, value: bigint) => {
    const hash = await client.sendTransaction({
      account: solver,
      to: filler,
      data: encodeFunctionData({
        abi: NativeFillerArtifact.abi,
        ...(functionName === 'payNative' ? { functionName, args: [to] } : { functionName, args: [weth, to] }),
      }),
      value,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 42161 });
    client = createAnvilClient(anvil);
    weth = await deployArtifact(client, {
      artifact: WrappedNativeArtifact,
      account: deployer,
      args: ['Wrapped Ether', 'WETH', 18],
    });
    filler = await deployArtifact(client, { artifact: NativeFillerArtifact, account: deployer });
    wethAsEth = await send('payWrappedAsNative', recipient, 4_000n);
    wethAsEthElsewhere = await send('payWrappedAsNative', someoneElse, 6_000n);
    internalNative = await send('payNative', recipient, 2_500n);
  });
  afterAll(() => anvil?.stop());

  const untraced = async <T>(run: (c: ReturnType<typeof createPublicClient>) => Promise<T>): Promise<T> => {
    const proxy = await startTraceRefusingProxy(anvil.rpcUrl);
    try {
      return await run(createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) }));
    } finally {
      proxy.server.close();
    }
  };

  describe('a WETH target paid as ETH to an EOA (N7, SpokePool _unwrapwrappedNativeTokenTo)', () => {
    it('reads no WETH at the recipient: the token read alone would reject the fill', async () => {
      expect(await readSettledAmount(client, { fillTxHash: wethAsEth, recipient, token: weth })).toEqual({
        basis: 'exact',
        amount: 0n,
      });
    });

    it('settles with the ETH the recipient received, delivered as the native currency', async () => {
      expect(
        await readWrappedPaidAsNative(client, { fillTxHash: wethAsEth, recipient, token: weth }),
      ).toEqual({
        basis: 'exact',
        amount: 4_000n,
        deliveredToken: zeroAddress,
      });
    });

    it('is nothing for a recipient the unwrapped ETH did not reach, or ETH paid without unwrapping the token', async () => {
      expect(
        await readWrappedPaidAsNative(client, { fillTxHash: wethAsEthElsewhere, recipient, token: weth }),
      ).toBeNull();
      // ETH alone is no WETH delivery: the token was not unwrapped in the transaction.
      expect(
        await readWrappedPaidAsNative(client, { fillTxHash: internalNative, recipient, token: weth }),
      ).toBeNull();
    });

    it('without tracing it is untraceable, never a 0 that rejects the fill', async () => {
      expect(
        await untraced((c) => readWrappedPaidAsNative(c, { fillTxHash: wethAsEth, recipient, token: weth })),
      ).toEqual({ basis: 'unreadable', reason: 'untraceable' });
    });
  });

  describe('a native target paid by an internal call (N6, S15: SpokePool sendValue, Swift payEth)', () => {
    it('is read exactly from the trace', async () => {
      expect(
        await readSettledAmount(client, { fillTxHash: internalNative, recipient, token: zeroAddress }),
      ).toEqual({ basis: 'exact', amount: 2_500n });
    });

    it('on a node without debug_traceTransaction is untraceable: the receipt shows no value paid', async () => {
      expect(
        await untraced((c) =>
          readSettledAmount(c, { fillTxHash: internalNative, recipient, token: zeroAddress }),
        ),
      ).toEqual({ basis: 'unreadable', reason: 'untraceable' });
    });
  });
});

describe('unwrappedAmount: what a wrapped native token unwrapped in a transaction', () => {
  const token: Address = '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1';
  const other: Address = '0x4200000000000000000000000000000000000006';
  const word = (n: bigint | string) =>
    `0x${(typeof n === 'bigint' ? n.toString(16) : n.slice(2)).padStart(64, '0')}` as const;
  const withdrawal = (address: Address, wad: bigint) => ({
    address,
    topics: [
      '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65',
      word('0x5c7BCd6E7De5423a257D81B442095A1a6ced35C5'),
    ] as [`0x${string}`, ...`0x${string}`[]],
    data: word(wad),
  });
  const transfer = (address: Address, to: Address, value: bigint) => ({
    address,
    topics: [
      '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
      word('0xe35e9842fceaCA96570B734083f4a58e8F7C5f2A'),
      word(to),
    ] as [`0x${string}`, ...`0x${string}`[]],
    data: word(value),
  });

  it("sums the token's WETH9 Withdrawals and aeWETH-style burns, nothing else", () => {
    expect(
      unwrappedAmount(
        [
          withdrawal(token, 5n),
          transfer(token, zeroAddress, 7n),
          transfer(token, someoneElse, 100n),
          withdrawal(other, 1_000n),
        ],
        token,
      ),
    ).toBe(12n);
    expect(unwrappedAmount([transfer(token, someoneElse, 100n)], token)).toBe(0n);
  });
});
