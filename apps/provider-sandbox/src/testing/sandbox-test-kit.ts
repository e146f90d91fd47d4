import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  erc20Abi,
  http,
  zeroAddress,
  type Address,
  type Hex,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BatchExecutorArtifact } from '@svc/testing';
import { type RunningSandbox } from '../start-sandbox';

/** Scenario amounts: `withScenario(10_000_000n, 'refund')` = 10_000_901n (docs/sandbox.md "Scenarios"). */
export {
  SANDBOX_SCENARIOS,
  scenarioOf,
  withScenario,
  type SandboxScenario,
} from '../scenarios/sandbox-scenarios';

/**
 * Helpers for the integration specs: a sandbox user's wallet on one chain, balances, HTTP calls, and
 * polling until the filler has done its part. Test-only: nothing in the sandbox imports this.
 */
export function userOn(sandbox: RunningSandbox, userIndex: number, chainId: number) {
  const entry = sandbox.chains.chains.find((c) => c.chainId === chainId)!;
  const chain = defineChain({
    id: chainId,
    name: entry.name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [entry.rpcUrl] } },
  });
  const account = privateKeyToAccount(sandbox.chains.accounts.users[userIndex].privateKey);
  const publicClient = createPublicClient({ chain, transport: http(entry.rpcUrl), pollingInterval: 50 });
  const wallet = createWalletClient({ account, chain, transport: http(entry.rpcUrl), pollingInterval: 50 });
  return {
    address: account.address,
    publicClient,
    wallet,
    /** Sends the calls in order, each mined before the next; returns the last hash. */
    async send(calls: { to: Address; data: Hex; value?: bigint }[]): Promise<Hex> {
      let last: Hex = '0x';
      for (const call of calls) {
        last = await wallet.sendTransaction({ to: call.to, data: call.data, value: call.value ?? 0n });
        const receipt = await publicClient.waitForTransactionReceipt({ hash: last });
        if (receipt.status !== 'success') throw new Error(`${last} reverted`);
      }
      return last;
    },
    /**
     * Sends the calls as one EIP-7702 transaction from the wallet's own address, delegating to `executor` (a
     * BatchExecutor) and running `executeBatch(calls)`, as the service's batched prepare does with `wallet_sendCalls`.
     */
    async sendBatch(executor: Address, calls: { to: Address; data: Hex; value: bigint }[]): Promise<Hex> {
      const authorization = await wallet.signAuthorization({ contractAddress: executor, executor: 'self' });
      const hash = await wallet.sendTransaction({
        authorizationList: [authorization],
        to: account.address,
        data: encodeFunctionData({
          abi: BatchExecutorArtifact.abi,
          functionName: 'executeBatch',
          args: [calls.map(({ to, value, data }) => ({ target: to, value, data }))],
        }),
      });
      const receipt = await publicClient.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`batch ${hash} reverted`);
      return hash;
    },
  };
}

export function tokenAddress(sandbox: RunningSandbox, chainId: number, symbol: string): Address {
  return sandbox.chains.tokens.find((t) => t.chainId === chainId && t.symbol === symbol)!.address;
}

export function freshAddress(): Address {
  return privateKeyToAccount(generatePrivateKey()).address;
}

export async function balanceOf(sandbox: RunningSandbox, chainId: number, token: Address, owner: Address) {
  const entry = sandbox.chains.chains.find((c) => c.chainId === chainId)!;
  const client = createPublicClient({ transport: http(entry.rpcUrl) });
  return token === zeroAddress
    ? client.getBalance({ address: owner })
    : client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });
}

export async function httpJson(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any dialect's JSON; specs assert on its shape
): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { 'content-type': 'application/json', ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: init.signal,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** Polls `read` until `done` holds (default 10 s), returning the last value. */
export async function waitUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A sandbox for one spec file: free ports, quick fills and failure holds, no manifest files. */
export const TEST_SANDBOX_OPTIONS = {
  port: 0,
  fillDelayMs: 100,
  failureHoldMs: 300,
  pollIntervalMs: 50,
  manifestDir: null,
  log: () => undefined,
};
