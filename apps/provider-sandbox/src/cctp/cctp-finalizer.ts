import {
  encodeFunctionData,
  getAbiItem,
  parseEventLogs,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { MessageTransmitterV2Artifact, Multicall3Artifact } from '../contracts/artifacts';
import { type TokenSender } from '../fill/token-sender';
import { type ChainClients } from '../rpc/chain-clients';
import { attestCctpMessage } from './cctp-attestation';
import { type CctpBurn, type CctpBurnBook } from './cctp-burn-book';
import { chainIdOfCctpDomain, cctpNonceOf, decodeCctpBurnMessage } from './cctp-message';

/**
 * Most `receiveMessage` calls in one mint transaction. Across's finalizer sizes its Multicall3 batches by gas
 * (across-protocol/relayer src/finalizer/index.ts `buildFinalizationBatches`, MULTICALL3_BATCH_GAS_CEILING 15M), which
 * fits about a hundred CCTP mints; the sandbox caps by count.
 */
export const CCTP_MAX_MINTS_PER_BATCH = 50;

/** How long an attested burn waits for others by default: burns attested together are minted together. */
export const CCTP_MINT_BATCH_WINDOW_MS = 50;

/** across-protocol/relayer src/common/Constants.ts: MULTICALL3_BATCH_GAS_OVERHEAD (the tryAggregate around the calls). */
const MULTICALL3_BATCH_GAS_OVERHEAD = 100_000n;

const MESSAGE_SENT = getAbiItem({ abi: MessageTransmitterV2Artifact.abi, name: 'MessageSent' });

interface ChainAddresses {
  chainId: number;
  messageTransmitter: Address;
  multicall3: Address;
}

/**
 * The sandbox's CCTP finalizer, doing what Circle's attestation service and Across's finalizer do together
 * (across-protocol/relayer src/finalizer/utils/cctp/anyToAny.ts `cctpV2Finalizer`, src/finalizer/index.ts): it polls
 * every chain for `MessageSent`, waits the attestation delay, attests each message (cctp-attestation.ts), and mints
 * every attested message bound for a chain in one Multicall3 `tryAggregate(false, [receiveMessage…])` from the Across
 * filler, up to CCTP_MAX_MINTS_PER_BATCH a transaction. As Across's `preflightFinalizations`, each call is simulated
 * from the Multicall3 first, and one that would revert (a message already received) is left out of the batch.
 */
export class CctpFinalizer {
  private readonly cursors = new Map<number, bigint>();
  private readonly queues = new Map<number, { burns: CctpBurn[]; timer: NodeJS.Timeout }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private pollTimer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly deps: {
      clients: ChainClients;
      chains: readonly ChainAddresses[];
      burns: CctpBurnBook;
      sender: TokenSender;
      attesterKey: Hex;
      attestationDelayMs(): number;
      batchWindowMs(): number;
      pollIntervalMs: number;
      now(): number;
      log(line: string): void;
    },
  ) {}

  async start(): Promise<void> {
    await Promise.all(
      this.deps.chains.map(async (c) => {
        this.cursors.set(c.chainId, (await this.deps.clients.public(c.chainId).getBlockNumber()) + 1n);
      }),
    );
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.pollTimer);
    this.timers.forEach(clearTimeout);
    this.queues.forEach((q) => clearTimeout(q.timer));
    this.queues.clear();
    await this.polling;
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(): void {
    if (this.stopped) return;
    this.pollTimer = setTimeout(() => {
      this.polling = Promise.all(this.deps.chains.map((c) => this.poll(c))).then(
        () => this.schedule(),
        () => this.schedule(),
      );
    }, this.deps.pollIntervalMs);
  }

  private async poll(chain: ChainAddresses): Promise<void> {
    try {
      const client = this.deps.clients.public(chain.chainId);
      const from = this.cursors.get(chain.chainId)!;
      const latest = await client.getBlockNumber();
      if (latest < from) return;
      const logs = await client.getLogs({
        address: chain.messageTransmitter,
        event: MESSAGE_SENT,
        fromBlock: from,
        toBlock: latest,
        strict: true,
      });
      this.cursors.set(chain.chainId, latest + 1n);
      for (const log of logs) this.index(chain.chainId, log.transactionHash, log.logIndex, log.args.message);
    } catch (error) {
      this.deps.log(`cctp: chain ${chain.chainId}: MessageSent poll failed: ${String(error)}`);
    }
  }

  private index(sourceChainId: number, txHash: Hex, logIndex: number, message: Hex): void {
    const decoded = decodeCctpBurnMessage(message);
    const destinationChainId = chainIdOfCctpDomain(decoded.destinationDomain);
    if (destinationChainId === null || !this.deps.chains.some((c) => c.chainId === destinationChainId)) {
      this.deps.log(
        `cctp: ${txHash} burns to domain ${decoded.destinationDomain}, which no sandbox chain is`,
      );
      return;
    }
    const burn: CctpBurn = {
      id: `${sourceChainId}:${txHash}:${logIndex}`,
      sourceChainId,
      sourceTxHash: txHash,
      sourceLogIndex: logIndex,
      destinationChainId,
      sentMessage: message,
      decoded,
      nonce: cctpNonceOf({ sourceChainId, transactionHash: txHash, logIndex }),
      status: 'pending',
      indexedAt: this.deps.now(),
    };
    if (!this.deps.burns.add(burn)) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.track(this.attestAndQueue(burn));
    }, this.deps.attestationDelayMs());
    this.timers.add(timer);
  }

  private async attestAndQueue(burn: CctpBurn): Promise<void> {
    burn.attestation = await attestCctpMessage({
      sent: burn.sentMessage,
      decoded: burn.decoded,
      nonce: burn.nonce,
      attesterKey: this.deps.attesterKey,
    });
    if (this.stopped) return;
    const chainId = burn.destinationChainId;
    let queue = this.queues.get(chainId);
    if (queue === undefined) {
      queue = { burns: [], timer: setTimeout(() => this.flush(chainId), this.deps.batchWindowMs()) };
      this.queues.set(chainId, queue);
    }
    queue.burns.push(burn);
  }

  private flush(chainId: number): void {
    const queue = this.queues.get(chainId);
    if (queue === undefined) return;
    this.queues.delete(chainId);
    for (let at = 0; at < queue.burns.length; at += CCTP_MAX_MINTS_PER_BATCH) {
      this.track(this.mint(chainId, queue.burns.slice(at, at + CCTP_MAX_MINTS_PER_BATCH)));
    }
  }

  private async mint(chainId: number, burns: CctpBurn[]): Promise<void> {
    const chain = this.deps.chains.find((c) => c.chainId === chainId)!;
    const client = this.deps.clients.public(chainId);
    const calls = burns.map((burn) => ({
      burn,
      call: {
        target: chain.messageTransmitter,
        callData: encodeFunctionData({
          abi: MessageTransmitterV2Artifact.abi,
          functionName: 'receiveMessage',
          args: [burn.attestation!.message, burn.attestation!.signature],
        }),
      },
    }));
    // relayer src/finalizer/index.ts preflightFinalizations: simulate each call as the multisender (here by
    // estimating its gas, which buildFinalizationBatches needs too), and leave out the ones that revert.
    const simulated = await Promise.all(
      calls.map(({ call }) =>
        client.estimateGas({ account: chain.multicall3, to: call.target, data: call.callData }).then(
          (gas) => ({ gas }),
          (error: unknown) => ({
            error: String(error instanceof Error ? error.message : error).split('\n')[0],
          }),
        ),
      ),
    );
    const kept: typeof calls = [];
    let gas = 0n;
    calls.forEach((c, i) => {
      const result = simulated[i];
      if ('gas' in result) {
        kept.push(c);
        gas += result.gas;
        return;
      }
      c.burn.status = 'failed';
      c.burn.failReason = result.error;
      this.deps.log(`cctp: left ${c.burn.id} out of the mint batch: ${result.error}`);
    });
    if (kept.length === 0) return;
    let receipt: TransactionReceipt;
    try {
      receipt = await this.deps.sender.call({
        provider: 'across',
        chainId,
        to: chain.multicall3,
        data: encodeFunctionData({
          abi: Multicall3Artifact.abi,
          functionName: 'tryAggregate',
          args: [false, kept.map(({ call }) => call)],
        }),
        // A sized limit, not the node's estimate: tryAggregate(false, …) succeeds whatever its calls do, so the
        // estimate is the floor at which the outer call survives, where a receiveMessage may run out of gas (relayer
        // src/finalizer/index.ts: the summed estimates + MULTICALL3_BATCH_GAS_OVERHEAD, × MULTICALL3_BATCH_GAS_MULTIPLIER).
        gas: ((gas + MULTICALL3_BATCH_GAS_OVERHEAD) * 11n) / 10n,
      });
    } catch (error) {
      this.deps.log(`cctp: mint batch on chain ${chainId} failed: ${String(error)}`);
      return;
    }
    const received = new Set(
      parseEventLogs({
        abi: MessageTransmitterV2Artifact.abi,
        eventName: 'MessageReceived',
        logs: receipt.logs.filter((l) => l.address.toLowerCase() === chain.messageTransmitter.toLowerCase()),
      }).map((l) => l.args.nonce.toLowerCase()),
    );
    for (const { burn } of kept) {
      if (received.has(burn.nonce.toLowerCase())) {
        burn.status = 'minted';
        burn.mintTxHash = receipt.transactionHash;
      } else {
        burn.status = 'failed';
        burn.failReason = `receiveMessage failed inside ${receipt.transactionHash}`;
        this.deps.log(`cctp: ${burn.id} was not minted by ${receipt.transactionHash}`);
      }
    }
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise.catch((error: unknown) => this.deps.log(`cctp: ${String(error)}`));
    this.inFlight.add(tracked);
    void tracked.finally(() => this.inFlight.delete(tracked));
  }
}
