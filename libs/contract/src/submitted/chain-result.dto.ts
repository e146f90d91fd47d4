import { ArrayMaxSize, IsArray, IsObject, IsOptional, Matches } from 'class-validator';
import { coded } from '../validation/coded';
import { IsChainId } from '../validation/is-chain-id.decorator';
import { IsOptionalField } from '../validation/is-optional-field.decorator';
import { IsStringOfLength } from '../validation/is-string-of-length.decorator';
import { SUBMITTED_LIMITS } from './submitted-limits';

const L = SUBMITTED_LIMITS;
const TX_HASH = /^0x[0-9a-fA-F]{64}$/;
const TX_HASHES = coded(
  'invalid_tx_hashes',
  `must be an array of at most ${L.maxTxHashes} transaction hashes (0x followed by 64 hex characters)`,
);
const QUOTE_RESULTS = coded(
  'invalid_quote_results',
  `must be an array of at most ${L.maxQuoteResults} objects`,
);

/** spec: SubmittedRequest.chainResults[]. Whether it carries any evidence at all is a cross-field rule. */
export class ChainResultDto {
  @IsChainId()
  chainId!: number;

  /** Nullable in the spec, hence IsOptional (which also skips null). */
  @IsOptional()
  @IsStringOfLength(
    1,
    L.maxBundleIdLength,
    coded('invalid_bundle_id', `must be null or a string of 1 to ${L.maxBundleIdLength} characters`),
  )
  bundleId?: string | null;

  @IsOptionalField()
  @IsArray(TX_HASHES)
  @ArrayMaxSize(L.maxTxHashes, TX_HASHES)
  @Matches(TX_HASH, { ...TX_HASHES, each: true })
  txHashes?: string[];

  /** Item shape is not shown in the spec: kept opaque and passed through as sent. */
  @IsOptionalField()
  @IsArray(QUOTE_RESULTS)
  @ArrayMaxSize(L.maxQuoteResults, QUOTE_RESULTS)
  @IsObject({ ...QUOTE_RESULTS, each: true })
  quoteResults?: Record<string, unknown>[];
}
