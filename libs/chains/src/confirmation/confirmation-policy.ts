/**
 * How deep a transaction must be before the service treats it as final enough to credit (a leg `settled`): a number
 * of blocks mined on top of the transaction's block (0: included is enough), or the chain's own `safe` / `finalized`
 * block tag (the transaction's block at or below that block).
 */
export type ConfirmationPolicy = { blocks: number } | { tag: 'safe' | 'finalized' };

/** A chain id anvil uses by default: sandboxes and dev nodes started without --chain-id. */
export const ANVIL_CHAIN_ID = 31337;

/** Local flows: two blocks on top of the fill, so the rule is exercised and a sandbox that mines each second is fast. */
export const DEV_CONFIRMATION_POLICY: ConfirmationPolicy = { blocks: 2 };

/** A chain the table below does not know: the chain's own `finalized` head, until an operator says otherwise. */
export const UNKNOWN_CHAIN_CONFIRMATION_POLICY: ConfirmationPolicy = { tag: 'finalized' };

/**
 * Defaults per chain, from each chain's published finality (docs/attempt-status.md "Confirmation policy" has the
 * table with the latencies). For comparison, the Across reference relayer waits for 4 blocks on Ethereum, 64 on
 * Polygon and 1 on OP Stack and Arbitrum chains before it fills deposits under 1 000 USD
 * (across-protocol/relayer src/common/Constants.ts MIN_DEPOSIT_CONFIRMATIONS).
 */
export const DEFAULT_CONFIRMATION_POLICIES: Readonly<Record<number, ConfirmationPolicy>> = {
  // Ethereum: the `safe` head is the latest justified checkpoint (about one epoch, ~6.4 min behind); reverting it
  // needs a third of the stake slashed (ethereum/execution-apis, block tags; ethereum.org "Proof-of-stake" finality).
  1: { tag: 'safe' },
  // OP Stack (Optimism, Base): `safe` is an L2 block derived from batch data posted to Ethereum, no longer subject to
  // sequencer reorgs (docs.optimism.io "Transaction finality", unsafe / safe / finalized).
  10: { tag: 'safe' },
  8453: { tag: 'safe' },
  // Arbitrum One: `safe` is the latest block whose batch is posted to Ethereum (docs.arbitrum.io "Block numbers and
  // time", safe and finalized tags follow the L1 batch).
  42161: { tag: 'safe' },
  // Polygon PoS: milestones give deterministic finality in seconds and the `finalized` tag follows them
  // (docs.polygon.technology "PoS finality", Heimdall v2 milestones).
  137: { tag: 'finalized' },
  // BNB Smart Chain: fast finality (BEP-126) makes the `finalized` tag about two blocks behind.
  56: { tag: 'finalized' },
  // Avalanche C-Chain: Snowman consensus is final on acceptance; `finalized` is the last accepted block.
  43114: { tag: 'finalized' },
  [ANVIL_CHAIN_ID]: DEV_CONFIRMATION_POLICY,
};

/** The default policy of a chain the service reads: its published finality, or `finalized` for one not listed. */
export function defaultConfirmationPolicy(chainId: number): ConfirmationPolicy {
  return DEFAULT_CONFIRMATION_POLICIES[chainId] ?? UNKNOWN_CHAIN_CONFIRMATION_POLICY;
}

/** `2 blocks`, `safe`, `finalized`: how a policy is written in CHAINS_FILE and shown. */
export function describeConfirmationPolicy(policy: ConfirmationPolicy): string {
  return 'tag' in policy ? policy.tag : `${policy.blocks} block${policy.blocks === 1 ? '' : 's'}`;
}

/**
 * The CHAINS_FILE value of `confirmations`: a number of blocks (a non-negative integer up to 10 000) or "safe" /
 * "finalized". Null when it is not one.
 */
export function parseConfirmationPolicy(value: unknown): ConfirmationPolicy | null {
  if (value === 'safe' || value === 'finalized') return { tag: value };
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= 10_000) {
    return { blocks: value };
  }
  return null;
}
