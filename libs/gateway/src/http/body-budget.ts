/** What request bodies may hold in memory at once, before anyone is authenticated (docs/operations/configuration.md). */
export interface BodyBudgetLimits {
  /** Body bytes one client address (IPv6: its /64) may have in flight (MAX_BODY_BYTES_IN_FLIGHT_PER_CLIENT). */
  perClientBytes: number;
  /** Body bytes all clients together may have in flight (MAX_BODY_BYTES_IN_FLIGHT). */
  totalBytes: number;
}

export const DEFAULT_BODY_BUDGET_LIMITS: BodyBudgetLimits = {
  perClientBytes: 4 * 1024 * 1024,
  totalBytes: 64 * 1024 * 1024,
};

/** Which bound refused bytes: the client's share or the whole instance's. */
export type BodyBudgetRefusal = 'client' | 'total';

/**
 * The request-body bytes a process holds, per client and in total (issue 23, security review N-M4). A body is
 * counted from its first byte read (its declared length, when it declares one, before any of it is read) until its
 * response is done, whether it authenticates or not: the signature covers the body, so nothing is known about the
 * sender until it is read. One client past its share is refused (429) while everyone else is still read; past the
 * total (many clients at once) every new body is refused (503) until some are done. Memory: one entry per client
 * with a body in flight.
 */
export class BodyBudget {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(readonly limits: BodyBudgetLimits) {}

  /** Takes `bytes` for `client`, or says which bound refuses them (and takes nothing). */
  take(client: string, bytes: number): BodyBudgetRefusal | null {
    const mine = this.held.get(client) ?? 0;
    if (mine + bytes > this.limits.perClientBytes) return 'client';
    if (this.total + bytes > this.limits.totalBytes) return 'total';
    this.held.set(client, mine + bytes);
    this.total += bytes;
    return null;
  }

  /** Gives back what `client` took. */
  give(client: string, bytes: number): void {
    if (bytes <= 0) return;
    const left = (this.held.get(client) ?? 0) - bytes;
    if (left > 0) this.held.set(client, left);
    else this.held.delete(client);
    this.total = Math.max(0, this.total - bytes);
  }

  /** Bytes held now, all clients together. */
  get heldBytes(): number {
    return this.total;
  }

  /** Clients with bytes held now. */
  get clients(): number {
    return this.held.size;
  }
}
