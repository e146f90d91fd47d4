import { Inject, Injectable } from '@nestjs/common';
import { CHAIN_REGISTRY, type ChainRegistry } from '@svc/chains';
import { attemptSnapshot, AttemptRefusedError } from '@svc/domain';
import { EVENT_STORE, type EventStore } from '@svc/event-store';
import { type BusReply, type MessagePattern } from '@svc/messaging';
import { attemptNotFound } from '../attempt-store/attempt-not-found';
import { decideAndAppend, loadAttempt } from '../attempt-store/attempt-stream';
import { AccountKindCache } from './account-kind-cache';
import { checkWalletSignature } from './check-wallet-signature';
import { reportIdFor } from './report-id';
import { type SubmitEvidence } from './submit-evidence.command';

type SubmitReply = BusReply<typeof MessagePattern.submit>;

/**
 * `settlement.submit`: records reported evidence (additive, at-least-once; nothing reported is ever dropped) and the
 * wallet's signature, and answers the attempt snapshot after recording. Signature problems refuse the whole report
 * before anything is recorded, and so does evidence past the attempt's bound.
 */
@Injectable()
export class SubmitEvidenceService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(CHAIN_REGISTRY) private readonly chains: ChainRegistry,
    private readonly accountKinds: AccountKindCache,
  ) {}

  async submit(command: SubmitEvidence): Promise<SubmitReply> {
    const attemptId = command.replayOf ?? command.attemptId;
    const loaded = await loadAttempt(this.store, attemptId, command.partnerId);
    if (!loaded) return attemptNotFound();
    if (command.replayOf) return this.snapshotReply(loaded.record);

    const { body, now } = command;
    const signature = body.walletAuthorization?.signature ?? null;
    let signer: string | null = null;
    if (signature !== null && loaded.record.signature === null) {
      const check = await checkWalletSignature(loaded.record, signature, {
        chains: this.chains,
        accountKinds: this.accountKinds,
        now,
      });
      if (!check.ok) return { ok: false, code: check.code, message: check.message };
      signer = check.signer;
    }
    const reportId = reportIdFor(
      command.partnerId,
      attemptId,
      command.idempotencyKey ?? command.requestId,
      body,
    );
    try {
      const record = await decideAndAppend(this.store, attemptId, `report:${reportId}`, {
        type: 'ReportEvidence',
        data: {
          reportId,
          chainResults: body.chainResults.map((r) => ({
            chainId: r.chainId,
            bundleId: r.bundleId,
            txHashes: r.txHashes.map((h) => h.toLowerCase()),
          })),
          submittedAt: body.submittedAt,
          signature: signature !== null && signer !== null ? { value: signature, signer } : null,
          now,
        },
      });
      if (!record) return attemptNotFound();
      return this.snapshotReply(record);
    } catch (err) {
      if (err instanceof AttemptRefusedError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
  }

  private snapshotReply(record: Parameters<typeof attemptSnapshot>[0]): SubmitReply {
    const body = attemptSnapshot(record, {
      chainName: (id) => (this.chains.has(id) ? this.chains.config(id).name : `chain ${id}`),
    });
    return { ok: true, body, resource: { kind: 'attempt', id: record.prepared.attemptId } };
  }
}
