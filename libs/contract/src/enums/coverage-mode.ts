/** spec: Enumerations / CoverageMode. */
export const COVERAGE_MODES = ['full', 'partial', 'none'] as const;

export type CoverageMode = (typeof COVERAGE_MODES)[number];
