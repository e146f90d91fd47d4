import { deciderSpec } from '@svc/testing';
import { type EvidenceChainResult } from './attempt.commands';
import {
  attemptPrepared,
  attemptUnderTest,
  authorizationSigned,
  evidenceReported,
  hash,
  report,
  SIG,
  T0,
  walletSubmitted,
} from './attempt.fixture';

const attempt = deciderSpec(attemptUnderTest);
const refused = (code: string) => expect.objectContaining({ name: 'AttemptRefusedError', code });
const at = T0 + 10_000;
const hashes = (from: number, count: number) => Array.from({ length: count }, (_, i) => hash(from + i));
// The fixture's chain 1 action has 2 calls (at most 2 × 2 + 8 = 12 hashes), chain 42161's has 1 (at most 10).
const eth = (...txHashes: string[]): EvidenceChainResult => ({ chainId: 1, bundleId: null, txHashes });
const arb = (bundleId: string | null, ...txHashes: string[]): EvidenceChainResult => ({
  chainId: 42161,
  bundleId,
  txHashes,
});

describe('ReportEvidence: evidence per attempt is bounded', () => {
  it('accepts up to 2 × the chain’s calls + 8 distinct hashes in one report', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(...hashes(1, 12))], at))
      .then([evidenceReported('r1', [eth(...hashes(1, 12))], at), walletSubmitted(at)]);
  });

  it('refuses a report that would pass the bound, whole: no evidence and no signature recorded', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [eth(...hashes(1, 13))], at, SIG))
      .thenThrows(refused('evidence_limit_exceeded'));
    attempt
      .given([attemptPrepared])
      .when(report('r1', [arb('b1', hash(100)), eth(...hashes(1, 13))], at))
      .thenThrows(refused('evidence_limit_exceeded'));
  });

  it('counts distinct hashes over every report', () => {
    const ten = [attemptPrepared, evidenceReported('r1', [eth(...hashes(1, 10))]), walletSubmitted()];
    attempt
      .given(ten)
      .when(report('r2', [eth(...hashes(9, 4))], at))
      .then([evidenceReported('r2', [eth(hash(11), hash(12))], at)]);
    attempt
      .given(ten)
      .when(report('r2', [eth(...hashes(9, 5))], at))
      .thenThrows(refused('evidence_limit_exceeded'));
  });

  it('never counts a hash twice: repeats, other letter case and recorded hashes are free', () => {
    const full = [attemptPrepared, evidenceReported('r1', [eth(...hashes(1, 12))]), walletSubmitted()];
    const upper = hash(12).replace(/[a-f]/g, (c) => c.toUpperCase());
    attempt
      .given(full)
      .when(report('r2', [eth(...hashes(1, 12), upper, hash(3))], at, SIG))
      .then([authorizationSigned(at)]);
  });

  it('bounds each chain by its own action', () => {
    attempt
      .given([attemptPrepared])
      .when(report('r1', [arb(null, ...hashes(1, 10)), eth(...hashes(20, 12))], at))
      .then([
        evidenceReported('r1', [arb(null, ...hashes(1, 10)), eth(...hashes(20, 12))], at),
        walletSubmitted(at),
      ]);
    attempt
      .given([attemptPrepared])
      .when(report('r1', [arb(null, ...hashes(1, 11))], at))
      .thenThrows(refused('evidence_limit_exceeded'));
  });

  it('keeps at most 8 distinct bundle ids per chain over every report', () => {
    const eight = [
      attemptPrepared,
      ...Array.from({ length: 8 }, (_, i) => evidenceReported(`r${i}`, [arb(`bundle-${i}`)])),
      walletSubmitted(),
    ];
    attempt
      .given(eight)
      .when(report('r9', [arb('bundle-8')], at))
      .thenThrows(refused('evidence_limit_exceeded'));
    attempt
      .given(eight)
      .when(report('r9', [arb('bundle-7', hash(1))], at))
      .then([evidenceReported('r9', [arb(null, hash(1))], at)]);
  });

  it('still records new evidence on a chain under its bound when another chain is already full', () => {
    const ethFull = [attemptPrepared, evidenceReported('r1', [eth(...hashes(1, 12))]), walletSubmitted()];
    attempt
      .given(ethFull)
      .when(report('r2', [eth(hash(1)), arb(null, hash(50))], at))
      .then([evidenceReported('r2', [arb(null, hash(50))], at)]);
  });
});
