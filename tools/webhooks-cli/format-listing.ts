import { type WebhookListing, type ListedWebhook } from './list-webhooks';
import { type ListFilter } from './parse-args';

const COLUMNS = [
  'attemptId',
  'eventId',
  'event',
  'status',
  'attempts',
  'nextAttemptAt',
  'lastStatus',
  'lastError',
] as const;

const FILTER_LABEL: Record<ListFilter, string> = {
  failing: 'retrying or abandoned',
  retrying: 'retrying',
  abandoned: 'abandoned',
};

/** One tab-separated line per entry under a header, then a summary line. */
export function formatListing(listing: WebhookListing, filter: ListFilter): string {
  const lines: string[] = [];
  if (listing.entries.length === 0) {
    lines.push(`no ${FILTER_LABEL[filter]} webhook entries`);
  } else {
    lines.push(COLUMNS.join('\t'));
    for (const entry of listing.entries) lines.push(formatEntry(entry));
  }
  const { queued, retrying, delivered, abandoned } = listing.counts;
  lines.push(
    `summary: ${listing.entries.length} listed (${FILTER_LABEL[filter]}) of ${listing.attempts} attempt(s); ` +
      `queued=${queued} retrying=${retrying} delivered=${delivered} abandoned=${abandoned}`,
  );
  return `${lines.join('\n')}\n`;
}

export function formatEntry(entry: ListedWebhook): string {
  return [
    entry.attemptId,
    entry.eventId,
    entry.event,
    entry.status,
    String(entry.attempts),
    entry.nextAttemptAt === null ? '-' : new Date(entry.nextAttemptAt).toISOString(),
    entry.lastStatus === null ? '-' : String(entry.lastStatus),
    entry.lastError === null ? '-' : oneLine(entry.lastError),
  ].join('\t');
}

/** Errors come from the network: keep each entry on one line. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
