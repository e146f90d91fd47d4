import { type EventStore } from '@svc/event-store';
import { loadWebhooks } from '@svc/webhooks';

export async function findEntryStatus(
  store: EventStore,
  attemptId: string,
  eventId: string,
): Promise<string | undefined> {
  const { state } = await loadWebhooks(store, attemptId);
  if (state.status === 'empty') return undefined;
  return state.entries.find((entry) => entry.eventId === eventId)?.status;
}
