/** Injection token for the EventStore port, bound by the composition root. */
export const EVENT_STORE = Symbol('EVENT_STORE');
