import {
  decodeFunctionData,
  encodeAbiParameters,
  encodeEventTopics,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  pad,
  parseAbi,
  toHex,
  zeroHash,
} from 'viem';
import {
  type ProviderCall,
  type ProviderQuote,
  type QuoteResult,
  type QuoteSlice,
  type StatusResult,
} from '../index';
import { InvalidQuoteSliceError } from '../invalid-quote-slice.error';
import { type ProvidersConfig } from '../providers-config';
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from '../testing/fake-provider-server.test-helper';
import { type Fixture, fixture } from '../testing/fixture.test-helper';
import { describeProviderAdapterContract } from '../testing/provider-adapter.contract';
import {
  FEE_RECIPIENT,
  NATIVE,
  quoteSlice,
  RECIPIENT,
  USDC,
  WALLET,
} from '../testing/quote-slice.test-helper';
import { type ReceiptLog } from '../provider-adapter.port';
import { MayanAdapter } from './mayan.adapter';

// The layouts written out independently of mayan-abi.ts, from the brief and the SDK artifacts.
const forwarderAbi = parseAbi([
  'function forwardERC20(address tokenIn, uint256 amountIn, (uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) permitParams, address mayanProtocol, bytes protocolData) payable',
  'function forwardEth(address mayanProtocol, bytes protocolData) payable',
  'function swapAndForwardEth(uint256 amountIn, address swapProtocol, bytes swapData, address middleToken, uint256 minMiddleAmount, address mayanProtocol, bytes mayanData) payable',
]);
const V1_ORDER =
  '(bytes32 trader, bytes32 tokenOut, uint64 minAmountOut, uint64 gasDrop, uint64 cancelFee, uint64 refundFee, uint64 deadline, bytes32 destAddr, uint16 destChainId, bytes32 referrerAddr, uint8 referrerBps, uint8 auctionMode, bytes32 random)';
const V2_ORDER =
  '(uint8 payloadType, bytes32 trader, bytes32 destAddr, uint16 destChainId, bytes32 referrerAddr, bytes32 tokenOut, uint64 minAmountOut, uint64 gasDrop, uint64 cancelFee, uint64 refundFee, uint64 deadline, uint8 referrerBps, uint8 auctionMode, bytes32 random)';
const swiftV1Abi = parseAbi([
  `function createOrderWithToken(address tokenIn, uint256 amountIn, ${V1_ORDER} params)`,
  `function createOrderWithEth(${V1_ORDER} params) payable`,
]);
const swiftV2Abi = parseAbi([
  `function createOrderWithToken(address tokenIn, uint256 amountIn, ${V2_ORDER} params, bytes customPayload)`,
  `function createOrderWithEth(${V2_ORDER} params, bytes customPayload) payable`,
]);

// The Swift event as Mayan's artifacts declare it (swap-sdk src/evm/MayanSwiftArtifact.ts and
// MayanSwiftV2Artifact.ts: OrderCreated, one input `key` bytes32, indexed: false), and the sandbox's extended one
// (apps/provider-sandbox/contracts/MayanSwift.sol), written out independently of mayan-order-refs.ts.
const swiftEventAbi = parseAbi(['event OrderCreated(bytes32 key)']);
const sandboxSwiftEventAbi = parseAbi([
  'event OrderCreated(bytes32 indexed key, address tokenIn, uint256 amountIn, bytes32 trader, bytes32 tokenOut, uint64 minAmountOut, bytes32 destAddr, uint16 destChainId, uint64 deadline, bytes32 random)',
]);
const orderKey = (n: number): Hex => keccak256(toHex(`order-${n}`));

/** OrderCreated(bytes32 key) as a real Swift emits it: the key in the data, topic0 alone. */
function orderCreated(key: Hex): ReceiptLog {
  return {
    address: SWIFT_V1_ADDRESS,
    topics: encodeEventTopics({ abi: swiftEventAbi, eventName: 'OrderCreated' }) as Hex[],
    data: encodeAbiParameters([{ type: 'bytes32' }], [key]),
  };
}

/** The sandbox's extended OrderCreated: the key indexed, the order after it in the data. */
function sandboxOrderCreated(key: Hex): ReceiptLog {
  return {
    address: SWIFT_V1_ADDRESS,
    topics: encodeEventTopics({
      abi: sandboxSwiftEventAbi,
      eventName: 'OrderCreated',
      args: { key },
    }) as Hex[],
    data: encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint64' },
        { type: 'bytes32' },
        { type: 'uint16' },
        { type: 'uint64' },
        { type: 'bytes32' },
      ],
      [
        USDC.arbitrum,
        100_000000n,
        bytes32(WALLET),
        bytes32(USDC.base),
        99_412440n,
        bytes32(RECIPIENT),
        30,
        1767229200n,
        RANDOM,
      ],
    ),
  };
}

const PRICE = '/mayan-price/v3';
const EXPLORER = '/mayan-explorer/v3';
const FORWARDER = getAddress('0x337685fdaB40D39bd02028545a4FfA7D287cC3E2');
const SWIFT_V1 = '0xC38e4e6A15593f908255214653d3D947CA1c2338';
const SWIFT_V1_ADDRESS = getAddress(SWIFT_V1);
const SWIFT_V2 = '0x6e6Ae4bBEC4e4A6A0e5C8c7f6fC4E2cD4b0a1f11';
const RANDOM: Hex = '0x5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed';
const SOURCE_TX: Hex = '0x4d2b6d19a5e3c07f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f7081';
const CONTEXT = { provider: 'mayan' as const, fromChain: 'arbitrum', toChain: 'base', targetDecimals: 6 };
const never = () => new AbortController().signal;
const bytes32 = (address: string) => pad(address.toLowerCase() as Hex, { size: 32 });

function mayanConfig(
  server: FakeProviderServer,
  overrides: Partial<ProvidersConfig['mayan']> = {},
): ProvidersConfig['mayan'] {
  return {
    priceUrl: server.origin + PRICE,
    explorerUrl: server.origin + EXPLORER,
    apiKey: null,
    forwarderAddress: FORWARDER,
    referrerAddress: null,
    timeoutMs: 5000,
    ...overrides,
  };
}

describeProviderAdapterContract({
  name: 'mayan',
  quoteRoute: { method: 'POST', path: `${PRICE}/quote` },
  make: (server, { timeoutMs }) => new MayanAdapter(mayanConfig(server, { timeoutMs })),
  slice: () => quoteSlice(),
});

describe('MayanAdapter', () => {
  let server: FakeProviderServer;
  const adapter = (overrides: Partial<ProvidersConfig['mayan']> = {}) =>
    new MayanAdapter(mayanConfig(server, overrides), { randomBytes32: () => RANDOM });
  const quoted = (result: QuoteResult): ProviderQuote => {
    if (!result.ok) throw new Error(`expected a quote, got ${JSON.stringify(result.failure)}`);
    return result.quote;
  };
  const progressOf = (result: StatusResult) => {
    if (!result.ok) throw new Error(`expected progress, got ${JSON.stringify(result.failure)}`);
    return result.progress;
  };

  beforeAll(async () => {
    server = await startFakeProviderServer();
  });
  afterEach(() => server.reset());
  afterAll(() => server.close());

  describe('quote', () => {
    const route = (body: unknown, status = 200) => server.route('POST', `${PRICE}/quote`, { status, body });
    const erc20Answer = () => fixture(__dirname, 'quote-swift-erc20.json');
    const nativeAnswer = () => fixture(__dirname, 'quote-swift-native.json');
    const WETH_BASE = '0x4200000000000000000000000000000000000006';
    const WETH_ARB = '0x82aF49447D8a07e3bd95BD0d56f35241523fBab1';
    const nativeSlice = (overrides: Partial<QuoteSlice> = {}) =>
      quoteSlice({
        source: { chainId: 8453, token: NATIVE, amount: 50000000000000000n, decimals: 18 },
        target: { chainId: 42161, token: WETH_ARB, decimals: 18 },
        ...overrides,
      });
    /** The Swift order inside a deposit call, whichever forwarder method and Swift version carry it. */
    const orderOf = (call: ProviderCall) => {
      const outer = decodeFunctionData({ abi: forwarderAbi, data: call.data });
      const protocolData = (outer.functionName === 'forwardEth' ? outer.args[1] : outer.args.at(-1)) as Hex;
      for (const abi of [swiftV1Abi, swiftV2Abi]) {
        try {
          return { outer, inner: decodeFunctionData({ abi, data: protocolData }) };
        } catch {
          // the other version's layout
        }
      }
      throw new Error('no Swift calldata');
    };
    const paramsOf = (call: ProviderCall) => {
      const { inner } = orderOf(call);
      return (inner.functionName === 'createOrderWithEth' ? inner.args[0] : inner.args[2]) as Record<
        string,
        unknown
      >;
    };
    const failureOf = async (slice: QuoteSlice = quoteSlice()) => {
      const result = await adapter().quote(slice, { signal: never() });
      if (result.ok) throw new Error('expected a failure, got a quote');
      return result.failure;
    };

    it('posts what swap-sdk v15.2.0 generateFetchQuoteUrlAndBody posts, Swift only, and builds approve + forwardERC20(createOrderWithToken) from the best Swift quote', async () => {
      route(erc20Answer());

      const quote = quoted(
        await adapter({ apiKey: 'mayan-secret' }).quote(quoteSlice(), { signal: never() }),
      );

      const [request] = server.received;
      expect(request.query.get('apiKey')).toBe('mayan-secret');
      expect(request.body).toEqual({
        wormhole: false,
        swift: true,
        mctp: false,
        shuttle: false,
        fastMctp: false,
        gasless: false,
        onlyDirect: false,
        fullList: false,
        guaranteedOutput: true,
        monoChain: false,
        mpsDeposit: false,
        solanaProgram: 'FC4eXxkyrMPTjiYUpp4EAnkmwMbQyZ6NDCh1kfLn6vsf',
        forwarderAddress: FORWARDER,
        amountIn64: '100000000',
        fromToken: USDC.arbitrum,
        fromChain: 'arbitrum',
        toToken: USDC.base,
        toChain: 'base',
        slippageBps: 50,
        destinationAddress: RECIPIENT,
        sdkVersion: '15_2_0',
      });
      // The second Swift quote pays more than the first; the MCTP one pays most but is not built here.
      expect(quote).toMatchObject({
        provider: 'mayan',
        sliceId: 'slice-1',
        expectedOutputRaw: 99912000n,
        // minReceivedBaseUnits: Mayan's "minimum that user receives", below the order floor 99.4624.
        minimumOutputRaw: 99412440n,
        inputUsd: null,
        outputUsd: null,
        feeUsd: 0.088,
        feeBreakdown: [{ kind: 'provider', usd: 0.088 }],
        lossUsd: null,
        etaSeconds: 12,
        providerRequestId: 'b9a5d7e2-4f8e-4e0b-a3d0-7fd5d2a1c002',
        validUntil: 1767229200000,
        trackingContext: CONTEXT,
      });

      const [approve, forward] = quote.calls;
      expect(quote.calls).toHaveLength(2);
      expect(approve).toEqual({
        chainId: 42161,
        to: USDC.arbitrum,
        data: expect.any(String),
        value: 0n,
        gas: null,
        kind: 'approve',
        approval: { token: USDC.arbitrum, spender: FORWARDER, amount: 100_000000n },
      });
      expect(decodeFunctionData({ abi: erc20Abi, data: approve.data })).toEqual({
        functionName: 'approve',
        args: [FORWARDER, 100_000000n],
      });
      expect(forward).toMatchObject({ chainId: 42161, to: FORWARDER, value: 0n, gas: null, kind: 'deposit' });

      const outer = decodeFunctionData({ abi: forwarderAbi, data: forward.data });
      expect(outer.functionName).toBe('forwardERC20');
      const [tokenIn, amountIn, permit, protocol, protocolData] = outer.args as readonly [
        string,
        bigint,
        unknown,
        string,
        Hex,
      ];
      expect([tokenIn, amountIn, protocol]).toEqual([USDC.arbitrum, 100_000000n, SWIFT_V1]);
      expect(permit).toEqual({ value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash });

      const inner = decodeFunctionData({ abi: swiftV1Abi, data: protocolData });
      expect(inner.functionName).toBe('createOrderWithToken');
      expect(inner.args).toEqual([
        USDC.arbitrum,
        100_000000n,
        {
          trader: bytes32(WALLET),
          tokenOut: bytes32(USDC.base),
          // getAmountOfFractionalAmount(minAmountOut 99.412, min(6, 8)): the SDK's floor, not minReceived.
          minAmountOut: 99462400n,
          gasDrop: 0n,
          cancelFee: 21000n,
          refundFee: 79000n,
          deadline: 1767229200n,
          destAddr: bytes32(RECIPIENT),
          destChainId: 30,
          referrerAddr: zeroHash,
          referrerBps: 0,
          auctionMode: 2,
          // createSwiftRandomKey: Buffer.from(UUID, 'hex') stops at the first dash, padded to 16 bytes, then the
          // first 16 random bytes.
          random: `0x${'00'.repeat(12)}b9a5d7e2${RANDOM.slice(2, 34)}`,
        },
      ]);
    });

    it('a minAmountOut below minReceivedBaseUnits: the leg minimum is the order floor, never more than the chain enforces', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) q.minAmountOut = 99.4;
      route(body);
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      expect(quote.minimumOutputRaw).toBe(99400000n);
      expect(paramsOf(quote.calls[1])).toMatchObject({ minAmountOut: 99400000n });
    });

    it('native input on Swift V2: wrap-and-lock through swapAndForwardEth with the route from GET /get-swap/evm, createOrderWithToken(0x0), never createOrderWithEth', async () => {
      route(nativeAnswer());
      const calldata: Hex = '0xd0e30db0';
      server.route('GET', `${PRICE}/get-swap/evm`, {
        status: 200,
        body: { swapRouterAddress: WETH_BASE, swapRouterCalldata: calldata },
      });

      const quote = quoted(
        await adapter({ apiKey: 'mayan-secret' }).quote(nativeSlice(), { signal: never() }),
      );

      expect(server.received.map((r) => `${r.method} ${r.path}`)).toEqual([
        `POST ${PRICE}/quote`,
        `GET ${PRICE}/get-swap/evm`,
      ]);
      expect(server.received[0].body).toMatchObject({
        fromToken: NATIVE,
        fromChain: 'base',
        toChain: 'arbitrum',
      });
      // swap-sdk src/api.ts getSwapEvm, as getSwiftFromEvmTxPayload calls it (no referrer: none was sent).
      expect(Object.fromEntries(server.received[1].query)).toEqual({
        forwarderAddress: FORWARDER,
        slippageBps: '50',
        fromToken: NATIVE,
        middleToken: WETH_BASE,
        chainName: 'base',
        amountIn64: '50000000000000000',
        apiKey: 'mayan-secret',
        sdkVersion: '15_2_0',
      });
      expect(quote).toMatchObject({
        expectedOutputRaw: 49957631000000000n,
        // min(minReceivedBaseUnits 49707842845000000, order floor 4970784 × 10^10).
        minimumOutputRaw: 49707840000000000n,
        providerRequestId: '0c3f1e557a3e49d9b6a42b3c99f0d1e4',
        trackingContext: { provider: 'mayan', fromChain: 'base', toChain: 'arbitrum', targetDecimals: 18 },
      });
      expect(quote.calls).toHaveLength(1);
      const [deposit] = quote.calls;
      expect(deposit).toMatchObject({
        chainId: 8453,
        to: FORWARDER,
        value: 50000000000000000n,
        kind: 'deposit',
      });
      const { outer, inner } = orderOf(deposit);
      expect(outer.functionName).toBe('swapAndForwardEth');
      expect(outer.args.slice(0, 6)).toEqual([
        50000000000000000n,
        getAddress(WETH_BASE),
        calldata,
        getAddress(WETH_BASE),
        // getAmountOfFractionalAmount(minMiddleAmount 0.05, swiftInputDecimals 18).
        50000000000000000n,
        SWIFT_V2,
      ]);
      expect(inner.functionName).toBe('createOrderWithToken');
      expect(inner.args).toEqual([
        NATIVE,
        50000000000000000n,
        {
          payloadType: 1,
          trader: bytes32(WALLET),
          destAddr: bytes32(RECIPIENT),
          destChainId: 23,
          referrerAddr: zeroHash,
          tokenOut: bytes32(WETH_ARB),
          minAmountOut: 4970784n,
          gasDrop: 0n,
          cancelFee: 300n,
          refundFee: 1200n,
          deadline: 1767229500n,
          referrerBps: 0,
          auctionMode: 2,
          // The 16-byte hex quoteId, then the first 16 random bytes.
          random: `0x0c3f1e557a3e49d9b6a42b3c99f0d1e4${RANDOM.slice(2, 34)}`,
        },
        '0x',
      ]);
    });

    it('native input on Swift V1: forwardEth(createOrderWithEth) carrying the amount, no swap route asked', async () => {
      const body = nativeAnswer();
      Object.assign(body.quotes[0], {
        swiftVersion: 'V1',
        swiftWrapAndLock: false,
        swiftInputContract: NATIVE,
        swiftMayanContract: SWIFT_V1,
      });
      route(body);
      const quote = quoted(await adapter().quote(nativeSlice(), { signal: never() }));
      expect(server.received).toHaveLength(1);
      const [deposit] = quote.calls;
      expect(deposit.value).toBe(50000000000000000n);
      const { outer, inner } = orderOf(deposit);
      expect([outer.functionName, outer.args[0], inner.functionName]).toEqual([
        'forwardEth',
        SWIFT_V1,
        'createOrderWithEth',
      ]);
    });

    it.each<[string, (quote: Fixture) => void]>([
      [
        'a V2 quote with native input and no wrap-and-lock ("Swift V2 doesn\'t support createOrderWithEth")',
        (q) => Object.assign(q, { swiftWrapAndLock: false, swiftInputContract: NATIVE }),
      ],
      ['wrap-and-lock on a V1 quote ("Invalid wrap & lock")', (q) => (q.swiftVersion = 'V1')],
      ['wrap-and-lock without minMiddleAmount', (q) => delete q.minMiddleAmount],
    ])('%s → provider_unavailable', async (_label, breakIt) => {
      const body = nativeAnswer();
      breakIt(body.quotes[0]);
      route(body);
      server.route('GET', `${PRICE}/get-swap/evm`, {
        status: 200,
        body: { swapRouterAddress: WETH_BASE, swapRouterCalldata: '0xd0e30db0' },
      });
      expect(await failureOf(nativeSlice())).toMatchObject({ reasonCode: 'provider_unavailable' });
    });

    it.each<[string, string, { status: number; body?: unknown }]>([
      [
        'a 500',
        'provider_unavailable',
        { status: 500, body: { statusCode: 500, message: 'Internal server error' } },
      ],
      ['a 400', 'route_unavailable', { status: 400, body: { msg: 'Route not found' } }],
      [
        'a route without calldata',
        'provider_unavailable',
        { status: 200, body: { swapRouterAddress: WETH_BASE } },
      ],
    ])('the swap route answers %s → %s', async (_label, reasonCode, reply) => {
      route(nativeAnswer());
      server.route('GET', `${PRICE}/get-swap/evm`, reply);
      expect(await failureOf(nativeSlice())).toMatchObject({ reasonCode });
    });

    it('a Swift V2 token quote: createOrderWithToken with the V2 layout and an empty custom payload', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) Object.assign(q, { swiftVersion: 'V2', swiftMayanContract: SWIFT_V2 });
      route(body);
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      const { inner } = orderOf(quote.calls[1]);
      expect(inner.functionName).toBe('createOrderWithToken');
      expect(inner.args[0]).toBe(USDC.arbitrum);
      expect(inner.args[2]).toMatchObject({ payloadType: 1, minAmountOut: 99462400n });
      expect(inner.args[3]).toBe('0x');
    });

    it('sends the app fee as referrer + referrerBps and writes the referrer bps the quote echoes into the order', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) q.referrerBps = 25;
      route(body);
      const quote = quoted(
        await adapter().quote(quoteSlice({ appFeeBps: 25, appFeeRecipient: FEE_RECIPIENT }), {
          signal: never(),
        }),
      );
      expect(server.received[0].body).toMatchObject({ referrer: FEE_RECIPIENT, referrerBps: 25 });
      expect(paramsOf(quote.calls[1])).toMatchObject({
        referrerAddr: bytes32(FEE_RECIPIENT),
        referrerBps: 25,
      });
      // The referrer is paid out of the locked source asset on Swift V2, on the destination on V1 (D15).
      const slice = quoteSlice({});
      expect(quote.appFee).toEqual(
        body.quotes[0].swiftVersion === 'V2'
          ? {
              paidAs: 'source_transfer',
              bps: 25,
              chainId: slice.source.chainId,
              token: slice.source.token,
              claim: null,
            }
          : {
              paidAs: 'destination_transfer',
              bps: 25,
              chainId: slice.target.chainId,
              token: slice.target.token,
              claim: null,
            },
      );
    });

    it('a quote that does not echo referrerBps gets 0 in the order (`quote.referrerBps || 0`, evmSwift.ts)', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) delete q.referrerBps;
      route(body);
      const quote = quoted(
        await adapter().quote(quoteSlice({ appFeeBps: 25, appFeeRecipient: FEE_RECIPIENT }), {
          signal: never(),
        }),
      );
      expect(paramsOf(quote.calls[1])).toMatchObject({
        referrerAddr: bytes32(FEE_RECIPIENT),
        referrerBps: 0,
      });
      expect(quote.appFee).toBeNull(); // the order pays no referrer fee, so none is collected
    });

    it.each<[string, 'V1' | 'V2', number, number | undefined, number, number]>([
      ['an app fee above every cap asks for 100 bps', 'V2', 300, undefined, 100, 0],
      ['V1 orders never pay more than 50 bps', 'V1', 80, 80, 80, 50],
      ['V2 orders never pay more than 100 bps', 'V2', 150, 150, 100, 100],
      ['a fee within the cap is kept', 'V2', 70, 70, 70, 70],
    ])(
      'referrer fee caps (docs referral): %s',
      async (_label, version, appFeeBps, echoed, asked, ordered) => {
        const body = erc20Answer();
        for (const q of body.quotes) {
          q.swiftVersion = version;
          if (echoed === undefined) delete q.referrerBps;
          else q.referrerBps = echoed;
        }
        route(body);
        const quote = quoted(
          await adapter().quote(quoteSlice({ appFeeBps, appFeeRecipient: FEE_RECIPIENT }), {
            signal: never(),
          }),
        );
        expect(server.received[0].body).toMatchObject({ referrerBps: asked });
        expect(paramsOf(quote.calls[1])).toMatchObject({ referrerBps: ordered });
        // What the markup owed to the partner is reckoned from: the rate the order really pays (none at 0).
        expect(quote.appFee?.bps ?? 0).toBe(ordered);
      },
    );

    it('prefers MAYAN_REFERRER_ADDRESS over the slice fee recipient, and then needs no recipient', async () => {
      const referrer = '0x1111111111111111111111111111111111111111';
      route(erc20Answer());
      await adapter({ referrerAddress: referrer }).quote(quoteSlice({ appFeeBps: 20 }), { signal: never() });
      expect(server.received[0].body).toMatchObject({ referrer, referrerBps: 20 });
    });

    it('throws InvalidQuoteSliceError for an app fee with no referrer at all', async () => {
      await expect(
        adapter().quote(quoteSlice({ appFeeBps: 20 }), { signal: never() }),
      ).rejects.toBeInstanceOf(InvalidQuoteSliceError);
    });

    it('a chain Mayan does not serve → route_unavailable without a request', async () => {
      const slice = quoteSlice({ target: { chainId: 324, token: USDC.base, decimals: 6 } });
      expect(await failureOf(slice)).toMatchObject({
        provider: 'mayan',
        reasonCode: 'route_unavailable',
        reason: 'mayan does not serve chain 324',
      });
      expect(server.received).toHaveLength(0);
    });

    it('a refundTo other than the wallet becomes the order trader (swap-sdk v15.2.0 swiftRefundAddress)', async () => {
      const refundTo = getAddress('0x2222222222222222222222222222222222222222');
      route(erc20Answer());
      const quote = quoted(await adapter().quote(quoteSlice({ refundTo }), { signal: never() }));
      expect(paramsOf(quote.calls[1])).toMatchObject({
        trader: bytes32(refundTo),
        destAddr: bytes32(RECIPIENT),
      });
    });

    it.each<[string, Partial<QuoteSlice>]>([
      ['refund address', { refundTo: NATIVE }],
      ['recipient', { recipient: NATIVE }],
    ])(
      'a zero %s → route_unavailable without a request, as the SDK refuses it',
      async (_label, overrides) => {
        expect(await failureOf(quoteSlice(overrides))).toMatchObject({ reasonCode: 'route_unavailable' });
        expect(server.received).toHaveLength(0);
      },
    );

    it.each<[string, unknown]>([
      ['empty quotes', { minimumSdkVersion: [11, 0, 0], quotes: [] }],
      ['no quotes field', { minimumSdkVersion: [11, 0, 0] }],
      [
        'only non-Swift quotes',
        { minimumSdkVersion: [11, 0, 0], quotes: [{ type: 'MCTP', expectedAmountOutBaseUnits: '1' }] },
      ],
    ])('%s → route_unavailable', async (_label, body) => {
      route(body);
      expect(await failureOf()).toMatchObject({ reasonCode: 'route_unavailable', httpStatus: 200 });
    });

    it.each<[string, number[]]>([
      ['a newer patch', [15, 2, 1]],
      ['a newer minor', [15, 3, 0]],
      ['a newer major', [16, 0, 0]],
    ])(
      'minimumSdkVersion %s than 15.2.0 → provider_unavailable, like "Swap SDK is outdated!"',
      async (_l, min) => {
        const body = erc20Answer();
        body.minimumSdkVersion = min;
        route(body);
        const failure = await failureOf();
        expect(failure).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: 200 });
        expect(failure.reason).toContain('Swap SDK is outdated!');
      },
    );

    it('minimumSdkVersion equal to ours is supported', async () => {
      const body = erc20Answer();
      body.minimumSdkVersion = [15, 2, 0];
      route(body);
      quoted(await adapter().quote(quoteSlice(), { signal: never() }));
    });

    it('a Swift route that swaps on the source chain first → route_unavailable', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) q.swiftInputContract = USDC.ethereum;
      route(body);
      expect(await failureOf()).toMatchObject({ reasonCode: 'route_unavailable' });
    });

    it.each<[string, (quote: Fixture) => void]>([
      ['no minimumSdkVersion', () => undefined],
      ['no swiftMayanContract', (q) => delete q.swiftMayanContract],
      ['no swiftInputContract', (q) => delete q.swiftInputContract],
      ['no minReceivedBaseUnits', (q) => delete q.minReceivedBaseUnits],
      ['no minAmountOut', (q) => delete q.minAmountOut],
      ['no gasDrop', (q) => delete q.gasDrop],
      ['no deadline64', (q) => delete q.deadline64],
      ['a zero deadline64', (q) => (q.deadline64 = '0')],
      ['no effectiveAmountIn64', (q) => delete q.effectiveAmountIn64],
      ['an effectiveAmountIn64 above the slice', (q) => (q.effectiveAmountIn64 = '100000001')],
      ['no cancelRelayerFee64', (q) => delete q.cancelRelayerFee64],
      ['no refundRelayerFee64', (q) => delete q.refundRelayerFee64],
      ['an empty refundRelayerFee64', (q) => (q.refundRelayerFee64 = '')],
      ['a cancel fee past uint64', (q) => (q.cancelRelayerFee64 = '18446744073709551616')],
      ['no swiftAuctionMode', (q) => delete q.swiftAuctionMode],
      ['a zero swiftAuctionMode', (q) => (q.swiftAuctionMode = 0)],
      ['an auction mode past uint8', (q) => (q.swiftAuctionMode = 256)],
      ['a referrerBps past uint8', (q) => (q.referrerBps = 300)],
      ['another source chain', (q) => (q.fromChain = 'optimism')],
      ['a toToken on another chain', (q) => (q.toToken.wChainId = 24)],
      ['another source token', (q) => (q.fromToken.contract = USDC.ethereum)],
    ])('%s → provider_unavailable', async (label, breakIt) => {
      const body = erc20Answer();
      if (label === 'no minimumSdkVersion') delete body.minimumSdkVersion;
      body.quotes.forEach(breakIt);
      route(body);
      expect(await failureOf()).toMatchObject({ reasonCode: 'provider_unavailable', httpStatus: 200 });
    });

    it('zero relayer fees sent as "0" are accepted (the SDK only refuses absent ones), and Swift sends value 0 whatever bridgeFee says', async () => {
      const body = erc20Answer();
      for (const q of body.quotes) {
        q.cancelRelayerFee64 = '0';
        q.refundRelayerFee64 = '0';
        q.bridgeFee = 0.000012;
        q.bridgeFee64 = '12000000000000';
      }
      route(body);
      const quote = quoted(await adapter().quote(quoteSlice(), { signal: never() }));
      expect(quote.calls[1].value).toBe(0n);
      expect(paramsOf(quote.calls[1])).toMatchObject({ cancelFee: 0n, refundFee: 0n, auctionMode: 2 });
    });

    it.each([
      // mayan-finance/wormhole-sdk-route src/index.ts: the price API's amount-too-small answer.
      [fixture(__dirname, 'quote-error-amount-too-small.json'), 400, 'amount_too_low'],
      // Spellings no Mayan source shows are not taken as amount_too_low any more.
      [{ code: 'AMOUNT_TOO_LOW', msg: 'Amount too low' }, 400, 'route_unavailable'],
      [{ code: 'MIN_AMOUNT', msg: 'Amount too low' }, 400, 'route_unavailable'],
      [{ msg: 'Route not found' }, 400, 'route_unavailable'],
      [{ statusCode: 500, message: 'Internal server error' }, 500, 'provider_unavailable'],
    ])('error body %j (%s) → %s', async (body, status, reasonCode) => {
      route(body, status);
      const result = await adapter({ apiKey: 'mayan-secret' }).quote(quoteSlice(), { signal: never() });
      expect(result).toMatchObject({
        ok: false,
        failure: { provider: 'mayan', reasonCode, httpStatus: status },
      });
      expect(JSON.stringify(result)).not.toContain('mayan-secret');
    });

    it("a 429 with Retry-After (the sandbox's NestJS-style throttle) → provider_unavailable, the wait passed on", async () => {
      server.route('POST', `${PRICE}/quote`, {
        status: 429,
        headers: { 'retry-after': '60' },
        body: { statusCode: 429, message: 'ThrottlerException: Too Many Requests' },
      });
      expect(await failureOf()).toMatchObject({
        reasonCode: 'provider_unavailable',
        httpStatus: 429,
        retryAfterMs: 60_000,
      });
    });
  });

  describe('tracking', () => {
    it('waits for the source tx, polls every 2 s at most (Mayan docs), takes a failure as final', () => {
      expect(adapter().tracking).toEqual({
        pollsBeforeSourceTx: false,
        minPollIntervalMs: 2000,
        failureGraceMs: 0,
        expectedFillSeconds: 120,
        // Followed past the order's deadline while its refund can still come (issue 24 item 2).
        refundWindowMs: 2 * 3_600_000,
      });
    });
  });

  describe('depositRefs', () => {
    const transfer: ReceiptLog = {
      address: getAddress(USDC.arbitrum),
      topics: encodeEventTopics({
        abi: erc20Abi,
        eventName: 'Transfer',
        args: { from: WALLET, to: FORWARDER },
      }) as Hex[],
      data: encodeAbiParameters([{ type: 'uint256' }], [100_000000n]),
    };

    it('reads the key of each Swift OrderCreated(bytes32 key) from its data, in log order, as 0x hex', () => {
      expect(
        adapter().depositRefs([transfer, orderCreated(orderKey(1)), transfer, orderCreated(orderKey(2))]),
      ).toEqual([orderKey(1), orderKey(2)]);
    });

    it("reads the sandbox's extended OrderCreated (key in topics[1]) too, in the same order", () => {
      expect(
        adapter().depositRefs([
          sandboxOrderCreated(orderKey(3)),
          orderCreated(orderKey(4)),
          sandboxOrderCreated(orderKey(5)),
        ]),
      ).toEqual([orderKey(3), orderKey(4), orderKey(5)]);
    });

    it('an OrderCreated whose data holds no key is skipped', () => {
      expect(adapter().depositRefs([{ ...orderCreated(orderKey(6)), data: '0x' }])).toEqual([]);
    });
  });

  describe('status', () => {
    const route = `${EXPLORER}/swap/trx/${SOURCE_TX}`;
    const statusOf = (context = CONTEXT, sourceTxHash: Hex | null = SOURCE_TX) =>
      adapter().status(context, { signal: never(), sourceTxHash });

    it('404 → pending not_indexed (the explorer lags the chain)', async () => {
      server.route('GET', route, { status: 404, body: { code: 'NOT_FOUND', message: 'Swap not found' } });
      expect(progressOf(await statusOf())).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
    });

    it('a 404 page that is not JSON → pending not_indexed as well', async () => {
      server.route('GET', route, { status: 404, raw: 'Not Found' });
      expect(progressOf(await statusOf())).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
    });

    it.each(['INPROGRESS', 'PENDING'])('%s → pending', async (clientStatus) => {
      server.route('GET', route, {
        status: 200,
        body: { ...fixture(__dirname, 'swap-trx-completed.json'), clientStatus },
      });
      expect(progressOf(await statusOf())).toEqual({
        state: 'pending',
        providerStatus: clientStatus,
        // The order's own deadline (its deadline64): the leg is followed until then plus the refund path.
        fillDeadlineAt: Date.parse('2026-01-01T01:00:00.000Z'),
      });
    });

    it('asks the explorer with the API key when one is configured (N4)', async () => {
      server.route('GET', route, { status: 200, body: fixture(__dirname, 'swap-trx-completed.json') });
      await adapter({ apiKey: 'mayan-secret' }).status(CONTEXT, { signal: never(), sourceTxHash: SOURCE_TX });
      expect(server.received.map((r) => r.query.get('apiKey'))).toEqual(['mayan-secret']);
    });

    it('COMPLETED → filled with fulfillTxHash and toAmount converted to base units, floored, never via a float', async () => {
      server.route('GET', route, { status: 200, body: fixture(__dirname, 'swap-trx-completed.json') });
      expect(progressOf(await statusOf())).toEqual({
        state: 'filled',
        providerStatus: 'COMPLETED',
        destinationTxHash: '0x2222222222222222222222222222222222222222222222222222222222222222',
        actualOutputRaw: 99921567n,
      });
    });

    it('COMPLETED to an 18-decimal token: every digit kept', async () => {
      server.route('GET', route, {
        status: 200,
        body: { ...fixture(__dirname, 'swap-trx-completed.json'), toAmount: '0.049961234567891234' },
      });
      expect(progressOf(await statusOf({ ...CONTEXT, targetDecimals: 18 }))).toMatchObject({
        actualOutputRaw: 49961234567891234n,
      });
    });

    it('REFUNDED → refunded with refundTxHash', async () => {
      const refund = '0x5555555555555555555555555555555555555555555555555555555555555555';
      server.route('GET', route, {
        status: 200,
        body: {
          ...fixture(__dirname, 'swap-trx-completed.json'),
          clientStatus: 'REFUNDED',
          status: 'REFUNDED_ON_EVM',
          fulfillTxHash: null,
          refundTxHash: refund,
        },
      });
      expect(progressOf(await statusOf())).toEqual({
        state: 'refunded',
        providerStatus: 'REFUNDED',
        refundTxHash: refund,
        reason: null,
        // refundChain "23" (Wormhole) = Arbitrum, the source chain.
        refundChainId: 42161,
      });
    });

    it("CANCELED → refunded, as Mayan's own route code maps it (wormhole-sdk-route src/utils.ts)", async () => {
      const refund = '0x6666666666666666666666666666666666666666666666666666666666666666';
      server.route('GET', route, {
        status: 200,
        body: {
          ...fixture(__dirname, 'swap-trx-completed.json'),
          clientStatus: 'CANCELED',
          status: 'ORDER_CANCELED',
          fulfillTxHash: null,
          toAmount: null,
          refundTxHash: refund,
        },
      });
      expect(progressOf(await statusOf())).toEqual({
        state: 'refunded',
        providerStatus: 'CANCELED',
        refundTxHash: refund,
        reason: null,
        refundChainId: 42161,
      });
    });

    it('CANCELED before its refund transaction exists (N14): pending, owed until the deadline, never a null refund', async () => {
      server.route('GET', route, {
        status: 200,
        body: {
          ...fixture(__dirname, 'swap-trx-completed.json'),
          clientStatus: 'CANCELED',
          status: 'ORDER_CANCELED',
          fulfillTxHash: null,
          toAmount: null,
          refundTxHash: null,
        },
      });
      expect(progressOf(await statusOf())).toEqual({
        state: 'pending',
        providerStatus: 'CANCELED',
        fillDeadlineAt: Date.parse('2026-01-01T01:00:00.000Z'),
      });
    });

    it.each([
      ['absent', undefined],
      ['a non-EVM chain (Solana, Wormhole 1)', '1'],
      ['unreadable', 'arbitrum'],
    ])('a refund whose refundChain is %s → refundChainId null', async (_label, refundChain) => {
      server.route('GET', route, {
        status: 200,
        body: { ...fixture(__dirname, 'swap-trx-completed.json'), clientStatus: 'REFUNDED', refundChain },
      });
      expect(progressOf(await statusOf())).toMatchObject({ state: 'refunded', refundChainId: null });
    });

    describe('by the order key (a batch can create several orders), one explorer call per poll (N4)', () => {
      const KEY = orderKey(7);
      // Mayan's own lookup of an order (mayan-finance/driver-sdk src/watchers/mayan-explorer.ts).
      const byKey = `${EXPLORER}/swap/order-id/SWIFT_${KEY}`;
      const leg = (ref: string | null, sourceTxHash: Hex | null = SOURCE_TX) =>
        adapter().status(CONTEXT, { signal: never(), sourceTxHash, deposit: { index: 1, ref } });

      it('asks /swap/order-id/SWIFT_{key} when the receipt named the order, and nothing else', async () => {
        server.route('GET', byKey, {
          status: 200,
          body: { ...fixture(__dirname, 'swap-trx-completed.json'), orderHash: KEY },
        });
        expect(progressOf(await leg(KEY))).toMatchObject({ state: 'filled', providerStatus: 'COMPLETED' });
        expect(server.received.map((request) => request.path)).toEqual([byKey]);
      });

      it('no ref, or one that is not a 32-byte key → the source tx hash, as before', async () => {
        server.route('GET', route, { status: 200, body: fixture(__dirname, 'swap-trx-completed.json') });
        await leg(null);
        await leg('42');
        expect(server.received.map((request) => request.path)).toEqual([route, route]);
      });

      it('the key not indexed yet → pending, in one call: no second lookup by the tx hash', async () => {
        server.route('GET', byKey, { status: 404, body: { code: 'NOT_FOUND', message: 'Swap not found' } });
        server.route('GET', route, { status: 200, body: fixture(__dirname, 'swap-trx-completed.json') });
        expect(progressOf(await leg(KEY))).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
        expect(server.received.map((request) => request.path)).toEqual([byKey]);
      });

      it("an answer about another order → pending, never the other order's outcome", async () => {
        server.route('GET', byKey, { status: 200, body: fixture(__dirname, 'swap-trx-completed.json') });
        expect(progressOf(await leg(KEY))).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
      });

      it('a key with no source tx hash still asks by the key', async () => {
        server.route('GET', byKey, { status: 404, raw: 'Not Found' });
        expect(progressOf(await leg(KEY, null))).toEqual({ state: 'pending', providerStatus: 'not_indexed' });
        expect(server.received).toHaveLength(1);
      });
    });

    it('no source transaction yet → not_found without a request', async () => {
      expect(await statusOf(CONTEXT, null)).toMatchObject({
        ok: false,
        failure: { reasonCode: 'not_found' },
      });
      expect(server.received).toHaveLength(0);
    });

    it.each([429, 500, 503])('HTTP %s → provider_unavailable', async (httpStatus) => {
      server.route('GET', route, { status: httpStatus, body: { message: 'busy' } });
      expect(await statusOf()).toMatchObject({
        ok: false,
        failure: { reasonCode: 'provider_unavailable', httpStatus },
      });
    });

    it('malformed JSON → provider_unavailable', async () => {
      server.route('GET', route, { status: 200, raw: '<html>' });
      expect(await statusOf()).toMatchObject({ ok: false, failure: { reasonCode: 'provider_unavailable' } });
    });
  });
});
