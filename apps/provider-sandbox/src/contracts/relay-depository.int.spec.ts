import { erc20Abi, parseEther, parseUnits, zeroAddress } from 'viem';
import { SANDBOX_ADDRESSES } from '../chains/sandbox-addresses';
import { RelayDepositoryArtifact } from './artifacts';
import { startContractTestChain, type ContractTestFixture } from './contract-test-fixture';

const { relayDepository, usdc } = SANDBOX_ADDRESSES;
const requestId = `0x${'ab'.repeat(32)}` as const;

describe('RelayDepository', () => {
  let f: ContractTestFixture;
  beforeAll(async () => (f = await startContractTestChain()));
  afterAll(() => f?.anvil.stop());

  it('depositNative keeps the value and emits RelayNativeDeposit for the depositor and request id', async () => {
    const { client, user } = f;
    const depositor = '0x000000000000000000000000000000000000dEaD';
    const receipt = await f.mined(
      await client.writeContract({
        account: user,
        address: relayDepository,
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositNative',
        args: [depositor, requestId],
        value: parseEther('1.5'),
      }),
    );
    expect(f.events(RelayDepositoryArtifact.abi, receipt)).toMatchObject([
      {
        eventName: 'RelayNativeDeposit',
        args: { from: depositor, amount: parseEther('1.5'), id: requestId },
      },
    ]);
    expect(await client.getBalance({ address: relayDepository })).toBe(parseEther('1.5'));
  });

  it('a zero depositor means the caller', async () => {
    const { client, user } = f;
    const receipt = await f.mined(
      await client.writeContract({
        account: user,
        address: relayDepository,
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositNative',
        args: [zeroAddress, requestId],
        value: 1n,
      }),
    );
    expect(f.events(RelayDepositoryArtifact.abi, receipt)[0].args).toMatchObject({ from: user.address });
  });

  it('depositErc20 pulls the approved amount and emits RelayErc20Deposit', async () => {
    const { client, user } = f;
    const amount = parseUnits('250', 6);
    await f.mined(
      await client.writeContract({
        account: user,
        address: usdc,
        abi: erc20Abi,
        functionName: 'approve',
        args: [relayDepository, amount],
      }),
    );
    const receipt = await f.mined(
      await client.writeContract({
        account: user,
        address: relayDepository,
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositErc20',
        args: [user.address, usdc, amount, requestId],
      }),
    );
    expect(f.events(RelayDepositoryArtifact.abi, receipt)).toMatchObject([
      { eventName: 'RelayErc20Deposit', args: { from: user.address, token: usdc, amount, id: requestId } },
    ]);
    const held = await client.readContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [relayDepository],
    });
    expect(held).toBe(amount);
  });

  it('depositErc20 without an allowance reverts with the token error', async () => {
    const { client, user } = f;
    await expect(
      client.simulateContract({
        account: user,
        address: relayDepository,
        abi: RelayDepositoryArtifact.abi,
        functionName: 'depositErc20',
        args: [user.address, usdc, 1n, requestId],
      }),
    ).rejects.toThrow(/reverted/);
  });
});
