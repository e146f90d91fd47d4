import { type FieldError } from '@svc/contract';

/**
 * Answer what prepare would refuse about the session itself (unknown, expired, not ready, already prepared), else
 * the body's errors: the gateway asks this instead of prepare when the body was invalid, because partners see a
 * session's problems before their body's. Read-only, and never answered ok.
 */
export interface CheckPreconditions {
  partnerId: string;
  intentSessionId: string;
  /** Server time of the request, epoch ms: expiry is judged at it. */
  now: number;
  /** Why the gateway refused the body, most important first. */
  bodyErrors: FieldError[];
}
