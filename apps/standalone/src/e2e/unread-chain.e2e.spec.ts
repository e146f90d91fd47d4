import { ChainRegistry } from '@svc/chains';
import { createProviderAdapters, loadProvidersConfig } from '@svc/providers';
import { SandboxDriver, startSandboxProcess, type SandboxProcess } from '@svc/testing';
import { PARTNERS, startTestApp, type TestApp } from './test-app';

/**
 * A chain the service cannot read (issue 24 item 5, security review H2 residue): the service runs with the sandbox's
 * chains but Base (8453, every leg's destination here) left out, as a CHAINS_FILE without it would. The provider's
 * word that it filled settles the leg only for a partner whose configuration accepts estimated settlement
 * (`acceptEstimatedSettlement`); for any other the fill is rejected with its reason and the leg stays tracked.
 */
describe('a leg delivered on a chain the service cannot read', () => {
  const accepting = {
    ...PARTNERS.other,
    partnerId: 'partner-estimated',
    secret: 'secret-est-0123456789abcd',
    acceptEstimatedSettlement: true,
  };
  let sandbox: SandboxProcess;
  let chains: ChainRegistry;
  let t: TestApp;

  beforeAll(async () => {
    sandbox = await startSandboxProcess();
    chains = new ChainRegistry(sandbox.manifest.chains.filter((c) => c.chainId !== 8453));
    t = await startTestApp({
      chains,
      partners: [PARTNERS.v2, accepting],
      providers: createProviderAdapters(loadProvidersConfig(sandbox.manifest.env)),
      env: { SETTLEMENT_TICK_MS: '100' },
    });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await chains?.close();
    await sandbox?.stop();
  });

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the snapshot JSON
  async function until(driver: SandboxDriver, attemptId: string, done: (s: any) => boolean): Promise<any> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const s = await driver.status(attemptId);
      if (done(s) || Date.now() > deadline) return s;
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it("settles on the provider's word only for the partner that accepts it; the other's leg is never settled", async () => {
    const wallets = await new SandboxDriver({ port: t.port, partner: PARTNERS.v2, sandbox }).fundWallets(
      2,
      [1],
      {
        USDC: 10_000_000n,
      },
    );
    const run = async (partner: typeof PARTNERS.v2, wallet: (typeof wallets)[number]) => {
      const driver = new SandboxDriver({ port: t.port, partner, sandbox });
      const { attempt } = await driver.prepare(wallet, [[1, 'USDC', '5000000']], { providers: ['relay'] });
      const chainResults = await driver.execute(wallet, attempt);
      await driver.submit(attempt.attemptId, {
        chainResults,
        walletAuthorization: { signature: await driver.sign(wallet, attempt) },
      });
      return { driver, attemptId: attempt.attemptId };
    };
    const [strict, lenient] = await Promise.all([run(PARTNERS.v2, wallets[0]), run(accepting, wallets[1])]);

    const settled = await until(lenient.driver, lenient.attemptId, (s) => s.status === 'settled');
    expect(settled.status).toBe('settled');
    expect(settled.perChainStatus[0].legs[0]).toMatchObject({
      status: 'settled',
      settledAmountBasis: 'estimated',
    });

    // The same delivery for the partner that does not accept it: rejected once, with its reason, never settled.
    const history = async () =>
      (await t.store.readStream(`attempt-${strict.attemptId}`)).map((e) => ({ type: e.type, data: e.data }));
    const deadline = Date.now() + 20_000;
    while (!(await history()).some((e) => e.type === 'LegFillRejected') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    const rejected = (await history()).filter((e) => e.type === 'LegFillRejected');
    expect(rejected).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          reason: expect.stringMatching(
            /^the destination chain is not one this service reads \(CHAINS_FILE\)/,
          ),
        }),
      }),
    ]);
    const strictNow = await strict.driver.status(strict.attemptId);
    expect(strictNow.status).toBe('provider_pending');
    expect(strictNow.perChainStatus[0].legs[0].status).not.toBe('settled');
    expect(strictNow.settledOutputs).toEqual([]);
    expect((await history()).some((e) => e.type === 'LegSettled')).toBe(false);
  }, 60_000);
});
