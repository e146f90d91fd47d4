import { type KurrentDBClient, type RecordedEvent as EsdbRecordedEvent } from '@kurrent/kurrentdb-client';
import { collect } from './collect';
import { kurrent } from './kurrent-client';

interface VisibilityRule {
  maxAgeMs: number | undefined;
  /** Lowest revision still readable (maxCount, truncateBefore, deletion); undefined: no cut. */
  firstRevision: number | undefined;
}

/**
 * Applies stream metadata to events read from $all. EventStoreDB applies $maxAge, $maxCount and $tb only to
 * stream reads; $all keeps returning such events until a scavenge removes them, and the port promises that
 * expired events are not returned by readAll either. One instance per readAll call caches one rule per stream.
 */
export class StreamVisibility {
  private readonly rules = new Map<string, Promise<VisibilityRule>>();

  constructor(
    private readonly client: KurrentDBClient,
    private readonly nowMs: number,
  ) {}

  async isVisible(event: EsdbRecordedEvent): Promise<boolean> {
    let rule = this.rules.get(event.streamId);
    if (rule === undefined) {
      rule = this.load(event.streamId);
      this.rules.set(event.streamId, rule);
    }
    const { maxAgeMs, firstRevision } = await rule;
    if (maxAgeMs !== undefined && this.nowMs - event.created.getTime() > maxAgeMs) return false;
    return firstRevision === undefined || Number(event.revision) >= firstRevision;
  }

  private async load(streamId: string): Promise<VisibilityRule> {
    const { metadata } = await this.client.getStreamMetadata(streamId);
    const maxAgeMs = metadata?.maxAge === undefined ? undefined : metadata.maxAge * 1000;
    const cuts: number[] = [];
    if (typeof metadata?.truncateBefore === 'number') cuts.push(metadata.truncateBefore);
    if (metadata?.maxCount !== undefined) {
      const last = await this.lastRevision(streamId);
      // No readable last event: the stream was deleted or all of it expired, so nothing of it is visible.
      cuts.push(last === undefined ? Number.POSITIVE_INFINITY : last - metadata.maxCount + 1);
    }
    return { maxAgeMs, firstRevision: cuts.length === 0 ? undefined : Math.max(...cuts) };
  }

  private async lastRevision(streamId: string): Promise<number | undefined> {
    try {
      const [last] = await collect(
        this.client.readStream(streamId, {
          direction: kurrent().BACKWARDS,
          fromRevision: kurrent().END,
          maxCount: 1,
        }),
      );
      return last?.event === undefined ? undefined : Number(last.event.revision);
    } catch (error) {
      if (error instanceof kurrent().StreamNotFoundError || error instanceof kurrent().StreamDeletedError)
        return undefined;
      throw error;
    }
  }
}
