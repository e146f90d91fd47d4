/**
 * The partner of each attempt the dispatcher met, so a lifecycle message or a run needs no read to know it (an
 * attempt's partner never changes). Bounded: the oldest entries are dropped first.
 */
export class KnownPartners {
  private readonly partners = new Map<string, string>();

  constructor(private readonly capacity = 10_000) {}

  of(attemptId: string): string | undefined {
    return this.partners.get(attemptId);
  }

  remember(attemptId: string, partnerId: string): void {
    if (this.partners.has(attemptId)) return;
    if (this.partners.size >= this.capacity) {
      const [oldest] = this.partners.keys();
      if (oldest !== undefined) this.partners.delete(oldest);
    }
    this.partners.set(attemptId, partnerId);
  }
}
