/** A 2xx answer that lacks a field we need or carries one we cannot trust; reported as provider_unavailable. */
export class MalformedResponseError extends Error {
  override readonly name = 'MalformedResponseError';
}
