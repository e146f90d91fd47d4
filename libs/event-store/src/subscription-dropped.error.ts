/** The store ended a subscription on its own (server shutdown, connection loss); subscribe again to resume. */
export class SubscriptionDroppedError extends Error {
  override readonly name = 'SubscriptionDroppedError';
  constructor(readonly subscriptionId: string) {
    super(`subscription ${subscriptionId} was dropped by the store`);
  }
}
