import { encodeFunctionData, erc20Abi, pad, parseEventLogs, zeroAddress, type Address } from 'viem';
import { SANDBOX_ADDRESSES } from '../chains/sandbox-addresses';
import { AcrossSpokePoolArtifact, WrappedNativeArtifact } from './artifacts';
import { startContractTestChain, type ContractTestFixture } from './contract-test-fixture';

const { acrossSpokePool, usdc, weth } = SANDBOX_ADDRESSES;
const eoa: Address = '0x000000000000000000000000000000000000bEEF';

/**
 * S16 (providers review N7): the sandbox pool pays a WETH output as the real one does
 * (across-protocol/contracts SpokePool.sol `_transferTokensToRecipient`, `_unwrapwrappedNativeTokenTo`): ETH to an
 * EOA or an EIP-7702 wallet, WETH to any other contract.
 */
describe('AcrossSpokePool.fillRelay of a WETH output (issue 24 S16)', () => {
  let f: ContractTestFixture;
  beforeAll(async () => {
    f = await startContractTestChain();
    await f.mined(
      await f.client.writeContract({
        account: f.user,
        address: weth,
        abi: erc20Abi,
        functionName: 'approve',
        args: [acrossSpokePool, 10n ** 30n],
      }),
    );
  });
  afterAll(() => f?.anvil.stop());

  const b32 = (a: Address) => pad(a, { size: 32 });
  const fill = (depositId: bigint, to: Address, outputAmount: bigint) =>
    f.client.sendTransaction({
      account: f.user,
      to: acrossSpokePool,
      data: encodeFunctionData({
        abi: AcrossSpokePoolArtifact.abi,
        functionName: 'fillRelay',
        args: [
          {
            depositor: b32(f.user.address),
            recipient: b32(to),
            exclusiveRelayer: b32(zeroAddress),
            inputToken: b32(weth),
            outputToken: b32(weth),
            inputAmount: outputAmount + 1n,
            outputAmount,
            originChainId: 1n,
            depositId,
            fillDeadline: 1_700_003_600,
            exclusivityDeadline: 0,
            message: '0x',
          },
          1n,
          b32(f.user.address),
        ],
      }),
    });
  const wethOf = (account: Address) =>
    f.client.readContract({ address: weth, abi: erc20Abi, functionName: 'balanceOf', args: [account] });

  it('pays an EOA in ETH: the record, the WETH pulled into the pool and unwrapped (Withdrawal), no WETH to the recipient', async () => {
    const [eth0, weth0] = [await f.client.getBalance({ address: eoa }), await wethOf(eoa)];
    const receipt = await f.mined(await fill(21n, eoa, 3n * 10n ** 15n));
    expect((await f.client.getBalance({ address: eoa })) - eth0).toBe(3n * 10n ** 15n);
    expect(await wethOf(eoa)).toBe(weth0);
    const events = parseEventLogs({
      abi: [...AcrossSpokePoolArtifact.abi, ...WrappedNativeArtifact.abi],
      logs: receipt.logs,
    });
    expect(events.map((e) => [e.eventName, e.address])).toEqual([
      ['FilledRelay', acrossSpokePool.toLowerCase()],
      ['Transfer', weth.toLowerCase()],
      ['Withdrawal', weth.toLowerCase()],
    ]);
    expect(events[1]).toMatchObject({ args: { to: acrossSpokePool } });
  });

  it('pays another contract in WETH, as the real pool does', async () => {
    const weth0 = await wethOf(usdc);
    await f.mined(await fill(22n, usdc, 5_000n));
    expect((await wethOf(usdc)) - weth0).toBe(5_000n);
  });
});
