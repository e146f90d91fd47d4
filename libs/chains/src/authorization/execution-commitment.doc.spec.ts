import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChainAction, type WalletAuthorizationMessage } from '@svc/contract';
import { type Hex, concat, hashTypedData, keccak256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ANVIL_ACCOUNTS } from '@svc/testing';
import { buildWalletAuthorization } from './build-wallet-authorization';
import { encodeCallsByHand } from './encode-calls-by-hand.spec-helper';
import { executionCommitment } from './execution-commitment';
import { verifyAuthorization } from './verify-authorization';

const doc = readFileSync(join(__dirname, '../../../../docs/execution-commitment.md'), 'utf8');

/** The fenced block right after `<!-- worked-example:<name> -->`. */
function example(name: string): string {
  const match = new RegExp(`<!-- worked-example:${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`docs/execution-commitment.md has no worked example "${name}"`);
  return match[1].trim();
}

describe('docs/execution-commitment.md worked examples', () => {
  // The doc shows only the fields the commitment reads; the cast stands for the ones it leaves out.
  const chainActions = JSON.parse(example('chain-actions')) as ChainAction[];
  const commitment = example('commitment') as Hex;

  it('the commitment is what executionCommitment computes for the chain actions shown', () => {
    expect(executionCommitment(chainActions)).toBe(commitment);
  });

  it('the encoding is the ABI layout of the two calls, word by word, and hashes to the commitment', () => {
    const lines = example('encoding')
      .split('\n')
      .map((line) => line.trim().split(/\s+/));
    expect(lines.map(([offset]) => Number(offset))).toEqual(lines.map((_, i) => 32 * i));
    const words = lines.map(([, word]): Hex => `0x${word}`);
    const calls = chainActions.flatMap((a) =>
      (a.calls ?? a.transactions)!.map((c) => ({
        chainId: a.chainId,
        to: c.to,
        value: c.value,
        data: c.data,
      })),
    );
    expect(words).toEqual(encodeCallsByHand(calls));
    expect(keccak256(concat(words))).toBe(commitment);
  });

  describe('signing', () => {
    const shown = JSON.parse(example('typed-data'));
    const { EIP712Domain, ...types } = shown.types;
    const message = shown.message as WalletAuthorizationMessage;
    const key = ANVIL_ACCOUNTS[0].privateKey;

    it('the typed data is what buildWalletAuthorization returns, plus the mechanical EIP712Domain', () => {
      const built = buildWalletAuthorization({
        ...message,
        executionCommitment: message.executionCommitment as Hex,
        nonce: message.nonce as Hex,
      });
      expect({ ...shown, types }).toEqual(built);
      expect(EIP712Domain).toEqual([
        { name: 'name', type: 'string' },
        { name: 'version', type: 'string' },
      ]);
      expect(message.executionCommitment).toBe(commitment);
    });

    it('the digest and the signature by the public dev key are the ones shown, and verify', async () => {
      expect(doc).toContain(key);
      expect(message.wallet).toBe(ANVIL_ACCOUNTS[0].address);
      expect(hashTypedData(shown)).toBe(example('digest'));
      const signature = await privateKeyToAccount(key).signTypedData({ ...shown, types });
      expect(signature).toBe(example('signature'));
      expect(await verifyAuthorization({ ...shown, types }, signature, message.wallet)).toBe(true);
    });
  });
});
