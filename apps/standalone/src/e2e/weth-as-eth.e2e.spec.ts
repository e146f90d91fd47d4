import { ChainRegistry } from '@svc/chains';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import { SandboxDriver, startSandboxProcess, type SandboxProcess } from '@svc/testing';
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * A WETH target Across pays as ETH (issue 24, providers review N7, S16): the sandbox pool, as the real SpokePool
 * (`_unwrapwrappedNativeTokenTo`), unwraps a WETH output for an EOA recipient and sends ETH. The leg settles with the
 * amount the recipient received, and says it came as the native currency.
 */
describe('a WETH target paid as ETH to an EOA', () => {
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains);
    t = await startTestApp({
      chains,
      partners: [PARTNERS.v2],
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
  });

  it('settles with the ETH received, deliveredToken the zero address, and no WETH at the recipient', async () => {
    const driver = new SandboxDriver({ port: t.port, partner: PARTNERS.v2, sandbox });
    const [wallet] = await driver.fundWallets(1, [1], { USDC: 10_000_000n });
    const { attempt, recipient } = await driver.prepare(wallet, [[1, 'USDC', '5000000']], {
      providers: ['across'],
      target: [8453, 'WETH'],
    });
    const base = sandbox.manifest.chains.find((c) => c.chainId === 8453)!;
    const reader = createPublicClient({ transport: http(base.rpcUrl) });
    const weth = driver.token(8453, 'WETH');
    const before = await reader.getBalance({ address: recipient as Address });
    const chainResults = await driver.execute(wallet, attempt);
    await driver.submit(attempt.attemptId, {
      chainResults,
      walletAuthorization: { signature: await driver.sign(wallet, attempt) },
    });
    const deadline = Date.now() + 30_000;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON
    let status: any;
    do {
      await new Promise((r) => setTimeout(r, 250));
      status = await driver.status(attempt.attemptId);
    } while (status.status !== 'settled' && Date.now() < deadline);
    expect(status.status).toBe('settled');
    const leg = status.perChainStatus[0].legs[0];
    const received = (await reader.getBalance({ address: recipient as Address })) - before;
    expect(received).toBeGreaterThan(0n);
    expect(leg).toMatchObject({
      status: 'settled',
      outputSymbol: 'WETH',
      settledAmount: received.toString(),
      settledAmountBasis: 'exact',
      deliveredToken: '0x0000000000000000000000000000000000000000',
    });
    expect(
      await reader.readContract({
        address: weth,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [recipient as Address],
      }),
    ).toBe(0n);
  }, 90_000);
});
