import { createPublicClient, http, parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import {
  ANVIL_ACCOUNTS,
  MayanForwarderArtifact,
  createAnvilClient,
  deployArtifact,
  startAnvil,
  type AnvilClient,
  type AnvilInstance,
} from '@svc/testing';
import { ChainRpcError } from '../errors/chain-rpc-error';
import { readAccountKind } from './read-account-kind';
import { readNativeBalance } from './read-native-balance';

const sender = privateKeyToAccount(ANVIL_ACCOUNTS[0].privateKey);
const delegating = ANVIL_ACCOUNTS[3].address;
const fresh = '0x000000000000000000000000000000000000bEEF';

describe('account reads', () => {
  let anvil: AnvilInstance;
  let client: AnvilClient;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 1 });
    client = createAnvilClient(anvil);
  });
  afterAll(() => anvil?.stop());

  it('readNativeBalance reads wei, now and at an earlier block', async () => {
    expect(await readNativeBalance(client, { owner: sender.address })).toBe(parseEther('10000'));
    const hash = await client.sendTransaction({ account: sender, to: fresh, value: parseEther('0.25') });
    const { blockNumber } = await client.waitForTransactionReceipt({ hash });
    expect(await readNativeBalance(client, { owner: fresh })).toBe(parseEther('0.25'));
    expect(await readNativeBalance(client, { owner: fresh, blockNumber: blockNumber - 1n })).toBe(0n);
  });

  describe('readAccountKind', () => {
    it('an address without code is an EOA', async () => {
      expect(await readAccountKind(client, { address: sender.address })).toEqual({ kind: 'eoa' });
      expect(await readAccountKind(client, { address: fresh })).toEqual({ kind: 'eoa' });
    });

    it('an address with code is a contract', async () => {
      const address = await deployArtifact(client, { artifact: MayanForwarderArtifact, account: sender });
      expect(await readAccountKind(client, { address })).toEqual({ kind: 'contract' });
    });

    it('an EOA carrying an EIP-7702 delegation designator is eip7702, with its delegate', async () => {
      const delegate = '0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B';
      await client.setCode({ address: delegating, bytecode: `0xef0100${delegate.slice(2).toLowerCase()}` });
      expect(await readAccountKind(client, { address: delegating })).toEqual({ kind: 'eip7702', delegate });
    });

    it("code of a designator's length but another prefix is a contract", async () => {
      // (anvil 1.7.1 crashes on anvil_setCode with an 0xef0100 prefix of the wrong length, so not that case)
      await client.setCode({ address: fresh, bytecode: `0x${'00'.repeat(23)}` });
      expect(await readAccountKind(client, { address: fresh })).toEqual({ kind: 'contract' });
    });
  });

  it('throws ChainRpcError when the node is unreachable', async () => {
    const down = await startAnvil({ chainId: 1 });
    const downClient = createPublicClient({ transport: http(down.rpcUrl, { retryCount: 0 }) });
    await down.stop();
    await expect(readAccountKind(downClient, { address: fresh })).rejects.toThrow(ChainRpcError);
    await expect(readNativeBalance(downClient, { owner: fresh })).rejects.toThrow(
      /^chain \?: eth_getBalance/,
    );
  });
});
