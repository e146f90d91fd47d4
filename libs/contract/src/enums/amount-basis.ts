/** spec: Enumerations / amountBasis: provenance of a settled amount. */
export const AMOUNT_BASES = ['exact', 'estimated'] as const;

export type AmountBasis = (typeof AMOUNT_BASES)[number];
