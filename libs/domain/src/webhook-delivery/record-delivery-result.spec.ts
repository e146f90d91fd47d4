import { deciderSpec } from '@svc/testing';
import { type WebhookDeliveryEvent } from './webhook-delivery.events';
import { WebhookDeliveryInputError } from './webhook-delivery-input.error';
import {
  abandoned,
  attempted,
  delivered,
  failed,
  gone,
  ok,
  queued,
  record,
  T0,
  webhookDeliveryUnderTest,
} from './webhook-delivery.fixture';

const webhooks = deciderSpec(webhookDeliveryUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'WebhookDeliveryRefusedError', code });

const S = 1_000;
const MIN = 60 * S;
const H = 60 * MIN;
/** The retry schedule written out: the delay after the 1st … 7th failed try. */
const SCHEDULE = [5 * S, 5 * MIN, 30 * MIN, 2 * H, 5 * H, 10 * H, 10 * H];

/** Seven failed tries, each made exactly when due (no jitter); returns the history and when the 8th is due. */
function sevenFailures(): { history: WebhookDeliveryEvent[]; due: number } {
  const history: WebhookDeliveryEvent[] = [queued('ev-1')];
  let at = T0;
  SCHEDULE.forEach((delay, i) => {
    history.push(attempted('ev-1', i + 1, at, at + delay));
    at += delay;
  });
  return { history, due: at };
}

describe('RecordDeliveryResult', () => {
  it('delivers on the first try', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0 + 100, ok(204)))
      .then([delivered('ev-1', 1, T0 + 100, 204)]);
  });

  it('records how long the try took with whatever it decided, when the dispatcher measured it', () => {
    const timed = (eventId: string, now: number, result: Parameters<typeof record>[2], latencyMs: number) => {
      const command = record(eventId, now, result);
      return { ...command, data: { ...command.data, latencyMs } } as typeof command;
    };
    const withLatency = (event: WebhookDeliveryEvent, latencyMs: number) =>
      ({ ...event, data: { ...event.data, latencyMs } }) as WebhookDeliveryEvent;
    webhooks
      .given([queued('ev-1')])
      .when(timed('ev-1', T0, ok(), 42))
      .then([withLatency(delivered('ev-1', 1, T0), 42)]);
    webhooks
      .given([queued('ev-1')])
      .when(timed('ev-1', T0, failed(null), 15_000))
      .then([withLatency(attempted('ev-1', 1, T0, T0 + 5 * S, null, 'timeout'), 15_000)]);
    webhooks
      .given([queued('ev-1')])
      .when(timed('ev-1', T0, gone, 7))
      .then([withLatency(abandoned('ev-1', 1, T0, 'gone: the callback URL answered 410', 410), 7)]);
  });

  it('schedules the first retry 5 s after a failed first try', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(503)))
      .then([attempted('ev-1', 1, T0, T0 + 5 * S)]);
  });

  it('records a try without a response (time-out) with a null status', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(null)))
      .then([attempted('ev-1', 1, T0, T0 + 5 * S, null, 'timeout')]);
  });

  it('follows the schedule exactly: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    const history: WebhookDeliveryEvent[] = [queued('ev-1')];
    let at = T0;
    SCHEDULE.forEach((delay, i) => {
      const next = attempted('ev-1', i + 1, at, at + delay);
      webhooks
        .given(history)
        .when(record('ev-1', at, failed(503)))
        .then([next]);
      history.push(next);
      at += delay;
    });
  });

  it('abandons the event when the 8th try (the first plus seven retries) fails', () => {
    const { history, due } = sevenFailures();
    webhooks
      .given(history)
      .when(record('ev-1', due, failed(500)))
      .then([abandoned('ev-1', 8, due, 'retries exhausted after 8 tries: HTTP 500', 500)]);
  });

  it('still delivers when the 8th try succeeds', () => {
    const { history, due } = sevenFailures();
    webhooks
      .given(history)
      .when(record('ev-1', due, ok()))
      .then([delivered('ev-1', 8, due)]);
  });

  it('waits for a Retry-After longer than the schedule', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(429, 60 * S)))
      .then([attempted('ev-1', 1, T0, T0 + 60 * S, 429, 'HTTP 429')]);
  });

  it('keeps the schedule when Retry-After is shorter', () => {
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, failed(429, 1 * S)))
      .then([attempted('ev-1', 1, T0, T0 + 5 * S, 429, 'HTTP 429')]);
  });

  it('abandons at once on 410 Gone, on the first try or a retry', () => {
    const reason = 'gone: the callback URL answered 410';
    webhooks
      .given([queued('ev-1')])
      .when(record('ev-1', T0, gone))
      .then([abandoned('ev-1', 1, T0, reason, 410)]);
    webhooks
      .given([queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5 * S)])
      .when(record('ev-1', T0 + 5 * S, gone))
      .then([abandoned('ev-1', 2, T0 + 5 * S, reason, 410)]);
  });

  it('counts the try that succeeds after retries', () => {
    webhooks
      .given([queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5 * S)])
      .when(record('ev-1', T0 + 6 * S, ok()))
      .then([delivered('ev-1', 2, T0 + 6 * S)]);
  });

  describe('refuses', () => {
    it('an unknown event (also on an empty stream)', () => {
      webhooks
        .given([])
        .when(record('ev-1', T0, ok()))
        .thenThrows(refused('webhook_event_unknown'));
      webhooks
        .given([queued('ev-1')])
        .when(record('ev-9', T0, ok()))
        .thenThrows(refused('webhook_event_unknown'));
    });

    it('an event behind the head: it must not have been sent', () => {
      webhooks
        .given([queued('ev-1'), queued('ev-2')])
        .when(record('ev-2', T0, ok()))
        .thenThrows(refused('webhook_not_head'));
    });

    it('an event already delivered or abandoned', () => {
      webhooks
        .given([queued('ev-1'), delivered('ev-1', 1, T0)])
        .when(record('ev-1', T0 + 1, ok()))
        .thenThrows(refused('webhook_not_in_flight'));
      webhooks
        .given([queued('ev-1'), abandoned('ev-1', 1, T0, 'gone', 410)])
        .when(record('ev-1', T0 + 1, failed()))
        .thenThrows(refused('webhook_not_in_flight'));
    });

    it('a result for a retry that is not due yet (a stale result of the previous try)', () => {
      const history = [queued('ev-1'), attempted('ev-1', 1, T0, T0 + 5 * S)];
      webhooks
        .given(history)
        .when(record('ev-1', T0 + 5 * S - 1, failed()))
        .thenThrows(refused('webhook_not_due'));
      webhooks
        .given(history)
        .when(record('ev-1', T0 + 5 * S, failed()))
        .then([attempted('ev-1', 2, T0 + 5 * S, T0 + 5 * S + 5 * MIN)]);
    });

    it('a random outside [0, 1) as a programming error', () => {
      webhooks
        .given([queued('ev-1')])
        .when(record('ev-1', T0, failed(), 1))
        .thenThrows(WebhookDeliveryInputError);
      webhooks
        .given([queued('ev-1')])
        .when(record('ev-1', T0, failed(), -0.1))
        .thenThrows(WebhookDeliveryInputError);
      webhooks
        .given([queued('ev-1')])
        .when(record('ev-1', T0, failed(), Number.NaN))
        .thenThrows(WebhookDeliveryInputError);
    });
  });
});
