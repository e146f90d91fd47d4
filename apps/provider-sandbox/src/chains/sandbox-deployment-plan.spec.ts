import { decodeFunctionData, getContractAddress, parseUnits } from 'viem';
import { TestTokenArtifact } from '../contracts/artifacts';
import { computeQuote } from '../pricing/compute-quote';
import { DEFAULT_PRICES, extraTokenPrices } from '../pricing/price-table';
import { DEFAULT_ECONOMICS } from '../pricing/provider-economics';
import { tokenName } from '../tokens/token-directory';
import { SANDBOX_ACCOUNTS } from './sandbox-accounts';
import { SANDBOX_ADDRESSES } from './sandbox-addresses';
import {
  planSandboxDeployment,
  sandboxExtraTokens,
  STANDARD_TRANSACTION_COUNT,
} from './sandbox-deployment-plan';

describe('extra tokens (SANDBOX_EXTRA_TOKENS)', () => {
  it('leave the standard plan alone by default: 12 deployments and 27 mints', () => {
    expect(STANDARD_TRANSACTION_COUNT).toBe(39);
    expect(planSandboxDeployment()).toEqual(planSandboxDeployment({ extraTokens: 0 }));
    expect(planSandboxDeployment()).toHaveLength(39);
  });

  it('are deployed after the standard plan, at the next deterministic nonces, and funded like the others', () => {
    const standard = planSandboxDeployment();
    const plan = planSandboxDeployment({ extraTokens: 2 });
    expect(plan.slice(0, 39)).toEqual(standard);
    expect(plan).toHaveLength(39 + 2 + 2 * 9);

    const extras = sandboxExtraTokens(2);
    expect(extras.map(({ symbol, name, decimals }) => ({ symbol, name, decimals }))).toEqual([
      { symbol: 'BENCH01', name: 'Bench Token 01', decimals: 18 },
      { symbol: 'BENCH02', name: 'Bench Token 02', decimals: 18 },
    ]);
    extras.forEach((token, i) => {
      const deployer = SANDBOX_ACCOUNTS.deployer.address;
      expect(token.address).toBe(getContractAddress({ from: deployer, nonce: BigInt(39 + i) }));
      expect(plan[39 + i]).toMatchObject({ label: `deploy ${token.symbol}`, expectedAddress: token.address });
      expect(Object.values(SANDBOX_ADDRESSES)).not.toContain(token.address);
      expect(tokenName(token.symbol)).toBe(token.name);
    });

    const mints = plan.slice(41).map((tx) => ({
      to: tx.to,
      ...decodeFunctionData({ abi: TestTokenArtifact.abi, data: tx.data }),
    }));
    expect(mints.filter((m) => m.to === extras[1].address)).toHaveLength(9);
    expect(mints[0]).toMatchObject({
      to: extras[0].address,
      functionName: 'mint',
      args: [SANDBOX_ACCOUNTS.users[0].address, parseUnits('1000000', 18)],
    });
  });

  it('are priced like USDC', () => {
    const [bench] = sandboxExtraTokens(1);
    const usdc = '0x00000000000000000000000000000000000000b1';
    const quote = computeQuote(
      {
        provider: 'across',
        originChainId: 1,
        destinationChainId: 8453,
        inputToken: bench.address,
        outputToken: usdc,
        amountIn: parseUnits('10', 18),
        slippageBps: 50,
        appFeeBps: 0,
      },
      {
        tokens: [
          { chainId: 1, ...bench },
          { chainId: 8453, symbol: 'USDC', address: usdc, decimals: 6 },
        ],
        prices: { ...DEFAULT_PRICES, ...extraTokenPrices([bench.symbol]) },
        economics: DEFAULT_ECONOMICS.across,
      },
    );
    expect(quote.grossOut).toBe(10_000_000n);
    expect(quote.amountInUsd).toBe(10_000_000n);
  });

  it('are bounded', () => {
    expect(() => sandboxExtraTokens(100)).toThrow(RangeError);
    expect(() => sandboxExtraTokens(-1)).toThrow(RangeError);
  });
});
