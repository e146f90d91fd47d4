/** spec: Enumerations / ProviderName. Only relay, across and mayan currently produce external routes. */
export const PROVIDER_NAMES = ['relay', 'across', 'mayan', 'symbiosis', 'fly'] as const;

export type ProviderName = (typeof PROVIDER_NAMES)[number];

export function isProviderName(value: unknown): value is ProviderName {
  return typeof value === 'string' && (PROVIDER_NAMES as readonly string[]).includes(value);
}
