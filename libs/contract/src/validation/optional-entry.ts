/** `{ key: value }`, or `{}` when the value is absent, so a validated value never holds undefined keys. */
export function optionalEntry<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
