import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { deliverWebhook } from '@svc/webhooks';
import { BenchFailure } from '../bench-failure';
import { benchPrepared } from '../webhook-seed';

/**
 * The webhook baseline: the dispatcher's own one-try function (deliverWebhook: sign, POST, read the answer) called
 * straight from here, `concurrency` loops at a time, each with a body the size of a real one. What is left between
 * this and an append → receiver run is the outbox, the bus and the dispatcher's bookkeeping.
 */
export async function bareDeliveries(params: {
  url: string;
  partnerId: string;
  secret: string;
  count: number;
  concurrency: number;
}): Promise<{ latencies: number[]; perSecond: number }> {
  const latencies: number[] = [];
  let issued = 0;
  const started = performance.now();
  const loop = async () => {
    while (issued < params.count) {
      issued += 1;
      const eventId = randomUUID();
      const attemptId = `at_bare_${issued}`;
      const body = JSON.stringify({
        ...benchPrepared(attemptId, params.partnerId, Date.now()),
        apiVersion: '1',
        eventId,
        event: 'settled',
        occurredAt: new Date().toISOString(),
      });
      const sent = performance.now();
      const result = await deliverWebhook({ ...params, eventId, body, now: Date.now });
      if (result.kind !== 'success')
        throw new BenchFailure(`a bare delivery failed: ${JSON.stringify(result)}`);
      latencies.push(performance.now() - sent);
    }
  };
  await Promise.all(Array.from({ length: params.concurrency }, loop));
  return { latencies, perSecond: latencies.length / ((performance.now() - started) / 1000) };
}
