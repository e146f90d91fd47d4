import { type AttemptSlice } from '@svc/domain';
import { type ProviderAdapter, type TrackingContext } from '@svc/providers';
import { type TrackerDeps } from './tracker-deps';

/**
 * The adapter that follows a slice, with the tracking context its quote stored (plain JSON in the attempt, typed
 * here once); null for a no-op slice or a provider this service has no adapter for.
 */
export function sliceProvider(
  deps: Pick<TrackerDeps, 'adapters'>,
  slice: AttemptSlice,
): { adapter: ProviderAdapter; context: TrackingContext } | null {
  const adapter = slice.provider === null ? undefined : deps.adapters[slice.provider];
  if (adapter === undefined || slice.trackingContext === null) return null;
  return { adapter, context: slice.trackingContext as unknown as TrackingContext };
}
