import { type AttemptSlice } from '@svc/domain';
import { type ProviderAdapter, readTrackingContext, type TrackingContext } from '@svc/providers';
import { type TrackerDeps } from './tracker-deps';

/**
 * The adapter that follows a slice, with the tracking context its quote stored (plain JSON in the attempt, checked and
 * typed by readTrackingContext); null for a no-op slice, a provider this service has no adapter for, or a context
 * that is not the provider's.
 */
export function sliceProvider(
  deps: Pick<TrackerDeps, 'adapters'>,
  slice: AttemptSlice,
): { adapter: ProviderAdapter; context: TrackingContext } | null {
  const adapter = slice.provider === null ? undefined : deps.adapters[slice.provider];
  const context = slice.trackingContext === null ? null : readTrackingContext(slice.trackingContext);
  if (adapter === undefined || context === null || context.provider !== slice.provider) return null;
  return { adapter, context };
}
