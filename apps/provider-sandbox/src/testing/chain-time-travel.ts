/**
 * Moves every chain's clock forward by `seconds` and mines a block there, so the chains' own time (their latest
 * block) is that much later at once: anvil's `evm_increaseTime` then `evm_mine` (foundry-rs anvil, "Anvil-specific
 * and EVM methods"). What a test uses to cover hours of a provider's timeline (Across's fill deadline, its bundle and
 * challenge period) in seconds (issue 24 S14).
 */
export async function advanceChainTime(rpcUrls: readonly string[], seconds: number): Promise<void> {
  await Promise.all(
    rpcUrls.map(async (url) => {
      await rpc(url, 'evm_increaseTime', [seconds]);
      await rpc(url, 'evm_mine', []);
    }),
  );
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}
