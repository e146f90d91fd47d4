import { type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signedRequest, type TestPartner } from '../http/signed-request';
import { type SandboxProcess } from './sandbox-process';
import { doWalletPart, type PreparedForWalletPart } from './wallet-part';

export interface SandboxFlowOptions {
  /** Port of the service's public API (the standalone service or the distributed gateway). */
  port: number;
  partner: TestPartner;
  sandbox: SandboxProcess;
  /** Which funded sandbox user pays (one per concurrent flow: nonces are per wallet). */
  userIndex: number;
  /** USDC (6 decimals) moved from chain 1 to chain 8453. */
  amount?: string;
  now?: () => number;
}

/** API calls of one flow, for assertions. */
export interface SandboxFlowResult {
  attemptId: string;
  intentSessionId: string;
  recipient: string;
}

/**
 * What a partner and its user's wallet do, through the public API: quote USDC 1 → 8453 on relay, prepare, send every
 * returned transaction from the funded sandbox wallet and sign the authorization (`doWalletPart`, shared with the
 * partner CLI's `sandbox-wallet`), report `submitted`. The service then
 * tracks the attempt to settled on its own. Fails loudly on any non-200.
 */
export async function runSandboxFlow(o: SandboxFlowOptions): Promise<SandboxFlowResult> {
  const now = o.now ?? Date.now;
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await signedRequest({
      port: o.port,
      partner: o.partner,
      method,
      path,
      body,
      ...(method === 'POST' ? { idempotencyKey: `flow-${Math.random().toString(36).slice(2)}` } : {}),
      timestamp: now(),
    });
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
    return res.json as T;
  };
  const user = o.sandbox.manifest.wallets.users[o.userIndex];
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const usdc = (chainId: number) => o.sandbox.token(chainId, 'USDC');
  const quote = await api<{ intentSessionId: string }>('POST', '/api/external/intents/quote', {
    walletAddress: user.address,
    recipient,
    sources: [{ chainId: 1, address: usdc(1), amount: o.amount ?? '5000000', symbol: 'USDC', decimals: 6 }],
    target: {
      chainId: 8453,
      address: usdc(8453),
      targetToken: { address: usdc(8453), symbol: 'USDC', decimals: 6 },
    },
    allowedProviders: ['relay'],
  });
  const attempt = await api<PreparedForWalletPart>(
    'POST',
    `/api/external/intents/${quote.intentSessionId}/prepare`,
    {},
  );
  const wallet = await doWalletPart({
    prepared: attempt,
    privateKey: user.privateKey as Hex,
    chains: o.sandbox.manifest.chains,
    pollingIntervalMs: 50,
  });
  await api<unknown>('POST', `/api/external/attempts/${attempt.attemptId}/submitted`, wallet.submittedBody);
  return {
    attemptId: attempt.attemptId,
    intentSessionId: quote.intentSessionId,
    recipient,
  };
}
