import { type Address, type Hex } from 'viem';
import { type ComputedQuote } from '../pricing/compute-quote';

export interface RelayQuoteRecord {
  requestId: Hex;
  user: Address;
  recipient: Address;
  refundTo: Address;
  quote: ComputedQuote;
  /** Relay's documented `referrer: "debug-force-refund"` test switch. */
  forceRefund: boolean;
  createdAt: number;
}

export interface AcrossQuoteRecord {
  id: string;
  depositor: Address;
  recipient: Address;
  /** The `refundAddress` query parameter: the deposit event does not carry it, so the quote book keeps it. */
  refundAddress: Address | undefined;
  quote: ComputedQuote;
  createdAt: number;
}

export interface MayanQuoteRecord {
  /** 16 random bytes as 0x-hex, so an order's `random` can carry it whole. */
  quoteId: Hex;
  destinationAddress: Address | undefined;
  quote: ComputedQuote;
  createdAt: number;
  /** Set once a Swift order has been matched to this quote, so two equal orders take two quotes. */
  matched: boolean;
}

/** Every quote handed out, kept so a later on-chain deposit can be matched to what was promised. */
export class QuoteBook {
  private readonly relay = new Map<string, RelayQuoteRecord>();
  private readonly across = new Map<string, AcrossQuoteRecord>();
  private readonly mayan: MayanQuoteRecord[] = [];

  addRelay(record: RelayQuoteRecord): void {
    this.relay.set(record.requestId.toLowerCase(), record);
  }

  relayQuote(requestId: string): RelayQuoteRecord | undefined {
    return this.relay.get(requestId.toLowerCase());
  }

  addAcross(record: AcrossQuoteRecord): void {
    this.across.set(record.id, record);
  }

  acrossQuote(id: string): AcrossQuoteRecord | undefined {
    return this.across.get(id);
  }

  /**
   * The newest Across quote a deposit executes, matched on what the deposit event carries (Across puts no quote
   * id on chain). Not claimed: the same swap transaction can be sent twice.
   */
  findAcross(deposit: {
    originChainId: number;
    destinationChainId: number;
    depositor: Address;
    recipient: Address;
    inputToken: Address;
    outputToken: Address;
    inputAmount: bigint;
    outputAmount: bigint;
  }): AcrossQuoteRecord | undefined {
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    return [...this.across.values()]
      .reverse()
      .find(
        ({ quote, depositor, recipient }) =>
          quote.tokenIn.chainId === deposit.originChainId &&
          quote.tokenOut.chainId === deposit.destinationChainId &&
          same(depositor, deposit.depositor) &&
          same(recipient, deposit.recipient) &&
          same(quote.tokenIn.address, deposit.inputToken) &&
          same(quote.tokenOut.address, deposit.outputToken) &&
          quote.amountIn === deposit.inputAmount &&
          quote.expectedOut === deposit.outputAmount,
      );
  }

  addMayan(record: MayanQuoteRecord): void {
    this.mayan.push(record);
  }

  /**
   * The Mayan quote a Swift order names, marked matched. Since swap-sdk v12.0.0 (src/utils.ts
   * `createSwiftRandomKey`) an order's `random` starts with its quoteId, left-padded to 16 bytes: the link the SDK
   * writes on chain (the sandbox's quoteIds are 16 bytes, so no padding). The order must still be the quoted one (chains, tokens, amount, recipient); a
   * wrap-and-lock order names native ETH and the amount the wrap yielded, which is the quoted input.
   */
  claimMayan(order: {
    random: Hex;
    originChainId: number;
    destinationChainId: number;
    tokenIn: Address;
    amountIn: bigint;
    tokenOut: Address;
    destAddr: Address;
  }): MayanQuoteRecord | undefined {
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    const quoteId = order.random.slice(0, 34);
    const record = this.mayan.find((r) => same(r.quoteId, quoteId));
    if (record === undefined || record.matched) return undefined;
    const { quote } = record;
    const quoted =
      quote.tokenIn.chainId === order.originChainId &&
      quote.tokenOut.chainId === order.destinationChainId &&
      same(quote.tokenIn.address, order.tokenIn) &&
      same(quote.tokenOut.address, order.tokenOut) &&
      quote.amountIn === order.amountIn &&
      (!record.destinationAddress || same(record.destinationAddress, order.destAddr));
    if (!quoted) return undefined;
    record.matched = true;
    return record;
  }
}
