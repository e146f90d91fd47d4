import { Injectable } from '@nestjs/common';
import {
  type AttemptSearchQuery,
  type AttemptSummary,
  encodeSearchCursor,
  parseTransactionResourceId,
} from '@svc/contract';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { AttemptStatusService } from '../attempt-status/attempt-status.service';
import { type AttemptLookupEntry } from './attempt-lookup.projection';
import { AttemptLookupsReadModel } from './attempt-lookups.read-model';

type Search = typeof MessagePattern.searchAttempts;
type TransactionAttempt = typeof MessagePattern.transactionAttempt;

/**
 * The support and reconciliation lookups: a partner's attempts by wallet / recipient / status / time, and the attempt
 * a transaction hash belongs to. Both read the lookup index after it caught up; the snapshot returned for a
 * transaction is the canonical one, rebuilt from the attempt's stream (GET status).
 */
@Injectable()
export class AttemptLookupsService {
  constructor(
    private readonly readModel: AttemptLookupsReadModel,
    private readonly status: AttemptStatusService,
  ) {}

  async search(partnerId: string, query: AttemptSearchQuery): Promise<BusReply<Search>> {
    await this.readModel.fresh();
    const page = this.readModel.index.search(partnerId, query);
    return {
      ok: true,
      body: {
        attempts: page.entries.map(summary),
        nextCursor: page.next === null ? null : encodeSearchCursor(query, page.next),
      },
      resource: null,
    };
  }

  async transactionAttempt(partnerId: string, resourceId: string): Promise<BusReply<TransactionAttempt>> {
    const parsed = parseTransactionResourceId(resourceId);
    if (!parsed.ok) {
      const [first] = parsed.errors;
      return {
        ok: false,
        code: first.code,
        message: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; '),
        details: parsed.errors,
      };
    }
    await this.readModel.fresh();
    const [match, ...others] = this.readModel.index.byTransactionHash(
      partnerId,
      parsed.chainId,
      parsed.txHash,
    );
    if (match === undefined) return transactionNotFound();
    const snapshot = await this.status.status({ partnerId, attemptId: match.attemptId });
    if (!snapshot.ok) return snapshot;
    const matchedTransaction = match.transactions.find(
      (t) => t.chainId === parsed.chainId && t.txHash === parsed.txHash,
    )!;
    return {
      ok: true,
      body: { ...snapshot.body, matchedTransaction, otherAttemptIds: others.map((o) => o.attemptId) },
      resource: null,
    };
  }
}

function summary(entry: AttemptLookupEntry): AttemptSummary {
  return {
    attemptId: entry.attemptId,
    intentSessionId: entry.intentSessionId,
    status: entry.status,
    walletAddress: entry.walletAddress,
    recipient: entry.recipient,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(entry.updatedAt).toISOString(),
    transactions: entry.transactions.map((t) => ({ ...t })),
  };
}

function transactionNotFound(): BusReply<TransactionAttempt> {
  return {
    ok: false,
    code: 'transaction_not_found',
    message: 'no attempt of this partner knows this transaction on this chain',
  };
}
