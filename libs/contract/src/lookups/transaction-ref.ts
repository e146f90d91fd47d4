import { type FieldError } from '../errors/error-response';
import { isChainId } from '../validation/is-chain-id.decorator';
import { TX_HASH_PATTERN } from './lookup-limits';

/** The path parameters of GET /transactions/{chainId}/{txHash}/attempt, joined into the route's resource id. */
export function transactionResourceId(chainId: string, txHash: string): string {
  return `${chainId}/${txHash}`;
}

/**
 * Reads the resource id back: a decimal chain id without leading zeros and a 32-byte hash (any case; lowercased).
 * Errors carry the stable codes `invalid_chain_id` and `invalid_transaction_hash`.
 */
export function parseTransactionResourceId(
  resourceId: string,
): { ok: true; chainId: number; txHash: string } | { ok: false; errors: FieldError[] } {
  const [rawChainId = '', txHash = '', ...rest] = resourceId.split('/');
  const errors: FieldError[] = [];
  const chainId = /^[1-9][0-9]{0,15}$/.test(rawChainId) ? Number(rawChainId) : Number.NaN;
  if (!isChainId(chainId))
    errors.push({ code: 'invalid_chain_id', field: 'chainId', message: 'must be a positive integer' });
  if (rest.length > 0 || !TX_HASH_PATTERN.test(txHash))
    errors.push({
      code: 'invalid_transaction_hash',
      field: 'txHash',
      message: 'must be 0x followed by 64 hex characters',
    });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, chainId, txHash: txHash.toLowerCase() };
}
