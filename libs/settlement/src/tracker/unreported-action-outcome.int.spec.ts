import { ChainRegistry } from '@svc/chains';
import { type LegProgress } from '@svc/domain';
import {
  ANVIL_ACCOUNTS,
  type AnvilClient,
  type AnvilInstance,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  TestTokenArtifact,
} from '@svc/testing';
import { type Address, type Hash } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { unreportedActionOutcome } from './unreported-action-outcome';

const chainId = 8453;
const deployer = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const handler = privateKeyToAccount(ANVIL_ACCOUNTS[4].privateKey);
const recipient: Address = '0x000000000000000000000000000000000000bEEF';
const wallet: Address = '0x000000000000000000000000000000000000cafe';

/**
 * Providers review N13 on anvil: an Across slow fill never carries `actionsSucceeded`, so a failed destination action
 * must be read from the chain. The "slow fill" here is the MulticallHandler's drain of the bridged token (USDC) to the
 * fallback recipient, the wallet, after its swap into the target token failed: nothing of the target reached the
 * recipient.
 */
describe('unreportedActionOutcome: a slow fill whose destination action failed (N13)', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  let chains: ChainRegistry;
  let usdc: Address;
  let drained: Hash;

  beforeAll(async () => {
    anvil = await startAnvil({ chainId });
    client = createAnvilClient(anvil);
    chains = new ChainRegistry([{ chainId, name: 'Base', rpcUrl: anvil.rpcUrl, nativeSymbol: 'ETH' }]);
    usdc = await deployArtifact(client, {
      artifact: TestTokenArtifact,
      account: deployer,
      args: ['USD Coin', 'USDC', 6],
    });
    const mint = await client.writeContract({
      account: deployer,
      address: usdc,
      abi: TestTokenArtifact.abi,
      functionName: 'mint',
      args: [handler.address, 10n ** 12n],
    });
    await client.waitForTransactionReceipt({ hash: mint });
    drained = await client.writeContract({
      account: handler,
      address: usdc,
      abi: TestTokenArtifact.abi,
      functionName: 'transfer',
      args: [wallet, 7_500_000n],
    });
    await client.waitForTransactionReceipt({ hash: drained });
  }, 60_000);
  afterAll(async () => {
    await chains?.close();
    await anvil?.stop();
  });

  const fill = () => ({ chainId, fillTxHash: drained, token: usdc, accounts: [recipient, wallet] });

  it('the fill gave the recipient none of the target: destination_action_failed, the bridged token at the wallet', async () => {
    const zero: LegProgress = {
      state: 'fill_rejected',
      destinationTxHash: drained,
      reason: 'nothing arrived',
    };
    expect(await unreportedActionOutcome({ chains }, zero, fill())).toEqual({
      state: 'destination_action_failed',
      destinationTxHash: drained,
      reason: expect.stringContaining('destination action failed'),
      refund: {
        chainId,
        token: usdc,
        amount: '7500000',
        amountBasis: 'exact',
        txHash: drained,
        to: wallet,
      },
    });
  });

  it('a fill that delivered the target stands; so does a zero fill with no bridged token at either account', async () => {
    const settled: LegProgress = {
      state: 'filled',
      destinationTxHash: drained,
      settledAmount: '5',
      amountBasis: 'exact',
    };
    expect(await unreportedActionOutcome({ chains }, settled, fill())).toBe(settled);
    const zero: LegProgress = {
      state: 'fill_rejected',
      destinationTxHash: drained,
      reason: 'nothing arrived',
    };
    expect(await unreportedActionOutcome({ chains }, zero, { ...fill(), accounts: [recipient] })).toBe(zero);
  });
});
