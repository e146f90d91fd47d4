import { describeIdempotencyStoreContract } from './idempotency-store.contract';
import { MemoryIdempotencyStore } from './memory-idempotency-store';

describeIdempotencyStoreContract('MemoryIdempotencyStore', () => new MemoryIdempotencyStore());
