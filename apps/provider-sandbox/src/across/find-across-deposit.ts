import { RequestFieldError } from '../http/request-field-error';
import { type CctpBurn } from '../cctp/cctp-burn-book';
import { type AcrossTransfer } from '../ledger/transfer-record';
import { type SandboxContext } from '../sandbox-context';
import { DepositNotFoundError } from './deposit-not-found-error';
import { IndexerQueryError } from './indexer-query-error';

export interface FoundAcrossDeposit {
  transfer: AcrossTransfer;
  pagination: { currentIndex: number; maxIndex: number };
}

/**
 * The deposit named by `depositTxnRef` (or its deprecated alias `depositTxHash`), or by `originChainId` +
 * `depositId`, and `index` (default 0) among the matches in log order, since one transaction can hold several
 * deposits. As across-protocol/indexer packages/indexer-api/src/services/deposits.ts: no match is a 404
 * DepositNotFoundException; an index past the matches is a 400 IndexParamOutOfRangeException.
 */
export function findAcrossDeposit(context: SandboxContext, query: URLSearchParams): FoundAcrossDeposit {
  const txRef = query.get('depositTxnRef') ?? query.get('depositTxHash');
  const originChainId = query.get('originChainId');
  const depositId = query.get('depositId');
  const index = readIndex(query.get('index'));
  let matches: AcrossTransfer[];
  if (txRef) {
    matches = context.transfers.acrossByDepositTx(txRef);
  } else if (originChainId && depositId && /^\d+$/.test(originChainId) && /^\d+$/.test(depositId)) {
    const transfer = context.transfers.acrossByDepositId(Number(originChainId), Number(depositId));
    matches = transfer ? [transfer] : [];
  } else {
    throw new RequestFieldError(
      'depositTxnRef',
      'missing',
      'depositTxnRef or originChainId and depositId is required',
    );
  }
  if (matches.length === 0) throw new DepositNotFoundError();
  const transfer = matches[index];
  if (!transfer) {
    throw new IndexerQueryError(
      'IndexParamOutOfRangeException',
      `Index ${index} out of range. Index must be between 0 and ${matches.length - 1}`,
    );
  }
  return { transfer, pagination: { currentIndex: index, maxIndex: matches.length - 1 } };
}

export type FoundAcrossDepositOrBurn =
  | ({ kind: 'intent' } & FoundAcrossDeposit)
  | { kind: 'cctp'; burn: CctpBurn; pagination: { currentIndex: number; maxIndex: number } };

/**
 * As findAcrossDeposit, for `/deposit/status`, which also answers for CCTP burns: by `depositTxnRef`, the indexer lists
 * the transaction's SpokePool deposits first, then its CCTP burns (MessageSent rows), then OFT sends, and `index`
 * counts along that list (across-protocol/indexer packages/indexer-api/src/services/deposits.ts
 * `getDepositStatusByTxnRef`). `/deposit` reads SpokePool deposits only (`getDeposit`), so it keeps findAcrossDeposit.
 */
export function findAcrossDepositOrBurn(
  context: SandboxContext,
  query: URLSearchParams,
): FoundAcrossDepositOrBurn {
  const txRef = query.get('depositTxnRef') ?? query.get('depositTxHash');
  if (!txRef) return { kind: 'intent', ...findAcrossDeposit(context, query) };
  const index = readIndex(query.get('index'));
  const intents = context.transfers.acrossByDepositTx(txRef);
  const burns = context.cctpBurns.byTx(txRef);
  const total = intents.length + burns.length;
  if (total === 0) throw new DepositNotFoundError();
  if (index >= total) {
    throw new IndexerQueryError(
      'IndexParamOutOfRangeException',
      `Index ${index} out of range. Index must be between 0 and ${total - 1}`,
    );
  }
  const pagination = { currentIndex: index, maxIndex: total - 1 };
  return index < intents.length
    ? { kind: 'intent', transfer: intents[index], pagination }
    : { kind: 'cctp', burn: burns[index - intents.length], pagination };
}

/** deposits.dto.ts: `index: s.refine(s.defaulted(stringToInt, 0), "positiveIndex", (value) => value >= 0)`. */
function readIndex(raw: string | null): number {
  if (raw === null || raw === '') return 0;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new IndexerQueryError(
      'ValidationError',
      `At path: index -- Expected a value of type \`positiveIndex\`, but received: \`${raw}\``,
    );
  }
  return Number(raw);
}
