import { performance } from 'node:perf_hooks';
import { PartnerClient } from '@svc/partner-client';
import { BenchFailure } from './bench-failure';
import { type BenchPartner } from './load/signed-api-request';
import { type QuoteFacts, readQuoteFacts } from './quote-stats';

export interface QuoteSample {
  ms: number;
  facts: QuoteFacts;
}

/**
 * Times POST /intents/quote as a partner's backend sends it (the partner client, v2, a new Idempotency-Key per
 * quote) and reads what the answer says about the fan-out. One try per quote: a retry would hide a failure and
 * distort the timing, so anything but a 200 fails the run.
 */
export class QuoteTimer {
  private readonly client: PartnerClient;
  private readonly runId = Date.now().toString(36);
  private seq = 0;

  constructor(baseUrl: string, partner: BenchPartner) {
    this.client = new PartnerClient({
      baseUrl,
      partnerId: partner.partnerId,
      secret: partner.secret,
      authVersion: 2,
      maxRetries: 0,
      requestTimeoutMs: 30_000,
    });
  }

  async ping(): Promise<void> {
    const ping = await this.client.ping();
    if (ping.status !== 200)
      throw new BenchFailure(`ping answered ${ping.status}: ${JSON.stringify(ping.body)}`);
  }

  /** `inspect` sees the 200 answer's body after the clock stopped (and may throw a BenchFailure). */
  async time(body: object, inspect?: (answer: unknown) => void): Promise<QuoteSample> {
    this.seq += 1;
    const started = performance.now();
    const res = await this.client.quote(body, { idempotencyKey: `bench-${this.runId}-${this.seq}` });
    const ms = performance.now() - started;
    if (res.status !== 200) {
      throw new BenchFailure(
        `quote ${this.seq} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 500)}`,
      );
    }
    inspect?.(res.body);
    return { ms, facts: readQuoteFacts(res.body) };
  }
}
