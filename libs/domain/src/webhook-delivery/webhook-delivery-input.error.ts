/** The dispatcher sent a value the policy cannot use (a random outside [0, 1)): a bug upstream, not a refusal. */
export class WebhookDeliveryInputError extends Error {
  override readonly name = 'WebhookDeliveryInputError';
  constructor(readonly detail: string) {
    super(`invalid webhook delivery input: ${detail}`);
  }
}
