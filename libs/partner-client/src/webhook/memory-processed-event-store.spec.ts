import { MemoryProcessedEventStore } from './memory-processed-event-store';
import { describeProcessedEventStoreContract } from './processed-event-store.contract';

describeProcessedEventStoreContract('MemoryProcessedEventStore', () => new MemoryProcessedEventStore());
