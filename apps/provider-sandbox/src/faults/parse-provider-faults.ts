import { isSandboxProvider } from '../pricing/sandbox-provider';
import { FaultConfigError } from './fault-config-error';
import { type FaultEndpoints, type ProviderFault } from './provider-fault';

const KNOWN_KEYS = new Set([
  'provider',
  'latencyMs',
  'httpStatus',
  'timeout',
  'routeUnavailableTokens',
  'refund',
  'malformedJson',
  'endpoints',
  'batchFillsMs',
  'cctp',
  'batchMintsMs',
]);
const ENDPOINTS: readonly FaultEndpoints[] = ['all', 'quote', 'status'];

/** Validates one fault or an array of them (the POST /faults body, or SANDBOX_FAULTS parsed as JSON). */
export function parseProviderFaults(value: unknown): ProviderFault[] {
  const list = Array.isArray(value) ? (value as unknown[]) : [value];
  return list.map((item, index) => parseOne(item, Array.isArray(value) ? `[${index}].` : ''));
}

function parseOne(value: unknown, at: string): ProviderFault {
  if (typeof value !== 'object' || value === null)
    throw new FaultConfigError(`${at}: a fault must be an object`);
  const raw = value as Record<string, unknown>;
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(key)) throw new FaultConfigError(`${at}${key}: unknown fault field`);
  }
  if (!isSandboxProvider(raw.provider)) {
    throw new FaultConfigError(`${at}provider: must be one of relay, across, mayan`);
  }
  const fault: ProviderFault = { provider: raw.provider };
  if (raw.latencyMs !== undefined) {
    if (!Number.isInteger(raw.latencyMs) || (raw.latencyMs as number) < 0) {
      throw new FaultConfigError(`${at}latencyMs: must be a non-negative integer`);
    }
    fault.latencyMs = raw.latencyMs as number;
  }
  for (const field of ['batchFillsMs', 'batchMintsMs'] as const) {
    if (raw[field] === undefined) continue;
    if (!Number.isInteger(raw[field]) || (raw[field] as number) < 0) {
      throw new FaultConfigError(`${at}${field}: must be a non-negative integer`);
    }
    fault[field] = raw[field] as number;
  }
  if (raw.httpStatus !== undefined) {
    const status = raw.httpStatus as number;
    if (!Number.isInteger(status) || !(status === 429 || (status >= 500 && status <= 599))) {
      throw new FaultConfigError(`${at}httpStatus: must be 429 or 5xx`);
    }
    fault.httpStatus = status;
  }
  for (const flag of ['timeout', 'refund', 'malformedJson', 'cctp'] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] !== 'boolean') throw new FaultConfigError(`${at}${flag}: must be a boolean`);
    fault[flag] = raw[flag];
  }
  if (raw.routeUnavailableTokens !== undefined) {
    const tokens = raw.routeUnavailableTokens;
    if (
      !Array.isArray(tokens) ||
      tokens.some((t) => typeof t !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(t))
    ) {
      throw new FaultConfigError(`${at}routeUnavailableTokens: must be an array of addresses`);
    }
    fault.routeUnavailableTokens = tokens as string[];
  }
  if (raw.endpoints !== undefined) {
    if (!ENDPOINTS.includes(raw.endpoints as FaultEndpoints)) {
      throw new FaultConfigError(`${at}endpoints: must be one of all, quote, status`);
    }
    fault.endpoints = raw.endpoints as FaultEndpoints;
  }
  return fault;
}
