export type {
  DepositSelector,
  ProviderAdapter,
  ProviderTrackingTraits,
  QuoteSlice,
  ReceiptLog,
  RoutableProvider,
} from './provider-adapter.port';
export type {
  FeeKind,
  ProviderCall,
  ProviderQuote,
  QuoteFailure,
  QuoteFailureReason,
  QuoteResult,
  TrackingContext,
  AppFeeCollection,
} from './provider-quote';
export type { LegProgress, StatusFailure, StatusResult } from './leg-progress';
export type { FillReceiptLog, FillRecord, FillRecordQuery, FoundFillRecord } from './fill-record';
export type { CctpBurn } from './cctp/cctp-burn';
export { InvalidQuoteSliceError } from './invalid-quote-slice.error';
export { TrackingContextMismatchError } from './tracking-context-mismatch.error';
export { readTrackingContext } from './read-tracking-context';
export {
  loadProvidersConfig,
  providerSecrets,
  providersConfig,
  type ProvidersConfig,
} from './providers-config';
export { PROVIDER_DEFAULTS, ProvidersEnv } from './providers-env.dto';
export { createProviderAdapters, type ProviderAdapterDeps } from './create-provider-adapters';
export { RELAY_MIN_POLL_INTERVAL_MS, RelayAdapter } from './relay/relay.adapter';
export { RELAY_KEY_REQUESTS_PER_MINUTE, RelayRequestBudget } from './relay/relay-request-budget';
export { AcrossAdapter } from './across/across.adapter';
export { MayanAdapter, type MayanAdapterDeps } from './mayan/mayan.adapter';
export { mayanChain, type MayanChain } from './mayan/mayan-chains';
export type { FetchFn, HttpSender } from './http/fetch-json';
export { ProviderHttp } from './http/provider-http';
export { PROVIDER_ADAPTERS } from './provider-adapters.token';
export { serializeProviderCall, type SerializedProviderCall } from './serialize-provider-call';
export { quoteSliceFromStored, storedQuote, storedQuoteSlice, type StoredQuoteSlice } from './stored-quote';
export {
  missingProviderCredentials,
  ROUTABLE_PROVIDERS,
  type MissingCredentials,
} from './provider-credentials';
export type { CalldataAllowlists, ChainContracts, ContractAllowlist } from './vouch/provider-contracts';
export { VouchedProviderAdapter } from './vouch/vouched-adapter';
