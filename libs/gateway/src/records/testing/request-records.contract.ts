import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { describeNonceStoreContract } from './nonce-store.contract';
import {
  CONTRACT_IDEMPOTENCY_RETENTION_SECONDS,
  type RequestRecordsHarness,
  type RequestRecordsHarnessFactory,
} from './request-records-harness';

export type { RequestRecordsHarness, RequestRecordsHarnessFactory } from './request-records-harness';

/**
 * The behaviour every RequestRecords implementation must share (NonceStore and IdempotencyStore), through the
 * gateway's NonceRegistry and IdempotencyLedger. Each case gets a fresh harness and releases it afterwards.
 */
export function describeRequestRecordsContract(name: string, factory: RequestRecordsHarnessFactory): void {
  describe(`RequestRecords contract: ${name}`, () => {
    let current: RequestRecordsHarness | undefined;
    const context = {
      harness(): RequestRecordsHarness {
        if (current === undefined)
          throw new Error('no harness: the factory failed or the case runs outside a test');
        return current;
      },
    };

    beforeEach(async () => {
      current = await factory({ idempotencyRetentionSeconds: CONTRACT_IDEMPOTENCY_RETENTION_SECONDS });
    });

    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    describeNonceStoreContract(context);
    describeIdempotencyStoreContract(context);
  });
}
