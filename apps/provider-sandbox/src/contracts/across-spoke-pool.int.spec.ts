import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  pad,
  parseEther,
  parseEventLogs,
  parseUnits,
  zeroAddress,
  type Address,
} from 'viem';
import { SANDBOX_ADDRESSES } from '../chains/sandbox-addresses';
import { AcrossSpokePoolArtifact } from './artifacts';
import { startContractTestChain, type ContractTestFixture } from './contract-test-fixture';

const { acrossSpokePool, usdc, weth } = SANDBOX_ADDRESSES;
const recipient = '0x000000000000000000000000000000000000bEEF';

describe('AcrossSpokePool.depositV3', () => {
  let f: ContractTestFixture;
  beforeAll(async () => (f = await startContractTestChain()));
  afterAll(() => f?.anvil.stop());

  const deposit = (inputToken: Address, inputAmount: bigint, value: bigint) =>
    ({
      account: f.user,
      address: acrossSpokePool,
      abi: AcrossSpokePoolArtifact.abi,
      functionName: 'depositV3',
      args: [
        f.user.address,
        recipient,
        inputToken,
        zeroAddress,
        inputAmount,
        (inputAmount * 99n) / 100n,
        42161n,
        zeroAddress,
        1_700_000_000,
        1_700_003_600,
        0,
        '0x',
      ],
      value,
    }) as const;

  it('pulls an ERC-20 input and emits V3FundsDeposited with incrementing deposit ids', async () => {
    const amount = parseUnits('100', 6);
    await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [acrossSpokePool, 2n * amount],
      }),
    );
    const first = await f.mined(await f.client.writeContract(deposit(usdc, amount, 0n)));
    const second = await f.mined(await f.client.writeContract(deposit(usdc, amount, 0n)));
    const [event] = f.events(AcrossSpokePoolArtifact.abi, first);
    expect(event).toMatchObject({
      eventName: 'V3FundsDeposited',
      args: {
        inputToken: usdc,
        outputToken: zeroAddress,
        inputAmount: amount,
        outputAmount: (amount * 99n) / 100n,
        destinationChainId: 42161n,
        depositId: 0,
        quoteTimestamp: 1_700_000_000,
        fillDeadline: 1_700_003_600,
        exclusivityDeadline: 0,
        depositor: f.user.address,
        recipient,
        exclusiveRelayer: zeroAddress,
        message: '0x',
      },
    });
    expect(f.events(AcrossSpokePoolArtifact.abi, second)[0].args).toMatchObject({ depositId: 1 });
    const held = await f.client.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [acrossSpokePool],
    });
    expect(held).toBe(2n * amount);
  });

  it('takes native ETH when the input token is WETH and the value equals the input amount', async () => {
    const receipt = await f.mined(
      await f.client.writeContract(deposit(weth, parseEther('2'), parseEther('2'))),
    );
    expect(f.events(AcrossSpokePoolArtifact.abi, receipt)[0].args).toMatchObject({
      inputToken: weth,
      inputAmount: parseEther('2'),
    });
    expect(await f.client.getBalance({ address: acrossSpokePool })).toBe(parseEther('2'));
  });

  it('reverts when the value does not match the input amount, or comes with an ERC-20 input', async () => {
    await expect(f.client.simulateContract(deposit(weth, parseEther('2'), parseEther('1')))).rejects.toThrow(
      /MsgValueDoesNotMatchInputAmount/,
    );
    await expect(f.client.simulateContract(deposit(usdc, 1n, 1n))).rejects.toThrow(
      /MsgValueDoesNotMatchInputAmount/,
    );
  });
});

describe('AcrossSpokePool.fillRelay and multicall (issue 24 S13)', () => {
  let f: ContractTestFixture;
  beforeAll(async () => (f = await startContractTestChain()));
  afterAll(() => f?.anvil.stop());

  const b32 = (a: Address) => pad(a, { size: 32 });
  const relay = (depositId: bigint, to: Address, outputAmount: bigint) => ({
    depositor: b32(f.user.address),
    recipient: b32(to),
    exclusiveRelayer: b32(zeroAddress),
    inputToken: b32(usdc),
    outputToken: b32(usdc),
    inputAmount: outputAmount + 1n,
    outputAmount,
    originChainId: 42161n,
    depositId,
    fillDeadline: 1_700_003_600,
    exclusivityDeadline: 0,
    message: '0x' as const,
  });
  const fillCall = (depositId: bigint, to: Address, amount: bigint) =>
    encodeFunctionData({
      abi: AcrossSpokePoolArtifact.abi,
      functionName: 'fillRelay',
      args: [relay(depositId, to, amount), 1n, b32(f.user.address)],
    });

  it('fills two deposits in one multicall: a FilledRelay then its transfer, per deposit; a second fill reverts', async () => {
    await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [acrossSpokePool, 10_000n],
      }),
    );
    const receipt = await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: acrossSpokePool,
        abi: AcrossSpokePoolArtifact.abi,
        functionName: 'multicall',
        args: [[fillCall(7n, recipient, 1000n), fillCall(8n, recipient, 2500n)]],
      }),
    );
    const events = parseEventLogs({ abi: [...AcrossSpokePoolArtifact.abi, ...erc20Abi], logs: receipt.logs });
    expect(events.map((e) => e.eventName)).toEqual(['FilledRelay', 'Transfer', 'FilledRelay', 'Transfer']);
    expect(events[0]).toMatchObject({
      address: acrossSpokePool.toLowerCase(),
      args: {
        originChainId: 42161n,
        depositId: 7n,
        relayer: b32(f.user.address).toLowerCase(),
        relayExecutionInfo: { updatedRecipient: b32(recipient).toLowerCase(), updatedOutputAmount: 1000n },
      },
    });
    expect(events[3]).toMatchObject({
      args: { from: f.user.address, to: getAddress(recipient), value: 2500n },
    });
    await expect(
      f.client.simulateContract({
        account: f.user,
        address: acrossSpokePool,
        abi: AcrossSpokePoolArtifact.abi,
        functionName: 'fillRelay',
        args: [relay(7n, recipient, 1000n), 1n, b32(f.user.address)],
      }),
    ).rejects.toThrow(/RelayFilled/);
  });
});
