import { type FeatureRefusal } from '@svc/messaging';

/** The one answer for an attempt that does not exist or is another partner's: the two are not told apart. */
export function attemptNotFound(): FeatureRefusal {
  return { ok: false, code: 'attempt_not_found', message: 'no attempt with this id' };
}
