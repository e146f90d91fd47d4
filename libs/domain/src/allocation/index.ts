export * from './allocation.types';
export * from './allocation-input.error';
export * from './allocate';
export * from './format-raw';
export * from './leg-usd-value';
export { PERCENT_UNITS_PER_PERCENT, percentUnits, targetQuotas } from './target-quotas';
export { MIN_USD_DECIMALS, usdDecimalsFor } from './usd-scale';
export { fractionDigits, isDecimal, normalizeDecimal, parseDecimal } from './parse-decimal';
