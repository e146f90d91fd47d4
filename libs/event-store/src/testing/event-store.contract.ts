import { describeAppendContract } from './contract/append.contract';
import { type EventStoreHarness, type EventStoreHarnessFactory } from './contract/event-store-harness';
import { describeLifecycleContract } from './contract/lifecycle.contract';
import { describeLiveSubscriptionContract } from './contract/live-subscription.contract';
import { describeReadContract } from './contract/read.contract';
import { describeStreamSettingsContract } from './contract/stream-settings.contract';
import { describeSubscriptionContract } from './contract/subscription.contract';
import { describeSubscriptionWakeUpContract } from './contract/subscription-wake-up.contract';
import { describeTruncationContract } from './contract/truncation.contract';

export type { EventStoreHarness, EventStoreHarnessFactory } from './contract/event-store-harness';

/**
 * The behaviour every EventStore adapter must share (see event-store.port.ts). Each case gets a fresh
 * harness from `factory` and releases it afterwards.
 */
export function describeEventStoreContract(adapterName: string, factory: EventStoreHarnessFactory): void {
  describe(`EventStore contract: ${adapterName}`, () => {
    let current: EventStoreHarness | undefined;
    const context = {
      harness(): EventStoreHarness {
        if (current === undefined)
          throw new Error('no harness: the factory failed or the case runs outside a test');
        return current;
      },
    };

    beforeEach(async () => {
      current = await factory();
    });

    afterEach(async () => {
      await current?.cleanup();
      current = undefined;
    });

    describeAppendContract(context);
    describeReadContract(context);
    describeSubscriptionContract(context);
    describeSubscriptionWakeUpContract(context);
    describeLiveSubscriptionContract(context);
    describeStreamSettingsContract(context);
    describeTruncationContract(context);
    describeLifecycleContract(context);
  });
}
