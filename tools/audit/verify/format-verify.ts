import { formatMalformed } from '../history/stored-events';
import { str } from '../report/render';
import { type Finding, findings, type VerifySummary } from './verify-all';

/** One finding on one line, printed as soon as it is found. */
export function formatFinding(finding: Finding): string {
  if (finding.kind === 'status') {
    const d = finding.difference;
    return `DIFFERENCE ${finding.attemptId} ${d.path}: folded ${str(d.expected)}, status ${str(d.actual)}\n`;
  }
  if (finding.kind === 'malformed')
    return `MALFORMED  ${finding.attemptId} ${formatMalformed(finding.event)}\n`;
  const m = finding.mismatch;
  const slice = m.sliceId === null ? '' : ` (${m.sliceId})`;
  return `MISMATCH   ${finding.attemptId} ${m.role} chain ${m.chainId} ${m.txHash}${slice}: ${m.fact}: recorded ${m.recorded}, on chain ${m.onChain}\n`;
}

export function formatSummary(summary: VerifySummary, chainChecks: string): string {
  const statuses = Object.entries(summary.byStatus)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status} ${n}`);
  const { overdue } = summary;
  const lines = [
    'summary',
    `  attempts checked: ${summary.attempts}`,
    `  attempts with findings: ${summary.attemptsWithFindings} (status differences ${summary.statusDifferences}, chain mismatches ${summary.chainMismatches}, malformed events ${summary.malformedEvents})`,
    `  attempt events of types this build does not know, skipped: ${formatSkipped(summary.skippedTypes)}`,
    `  chain checks: ${chainChecks}; transactions not re-verifiable: ${summary.unverified}, chain not readable now: ${summary.unreachable}`,
    `  attempts by status: ${statuses.length === 0 ? 'none' : statuses.join(', ')}`,
    `  open attempts past their deadlines: evidence deadline passed without evidence ${overdue.evidence}, tracking limit passed ${overdue.tracking}${overdue.examples.length === 0 ? '' : ` (e.g. ${overdue.examples.join(', ')})`}`,
    resultLine(findings(summary), summary.unreachable),
  ];
  return `${lines.join('\n')}\n`;
}

/** `Type (n), …`, or none. */
export function formatSkipped(skipped: Record<string, number>): string {
  const types = Object.entries(skipped).sort(([a], [b]) => a.localeCompare(b));
  return types.length === 0 ? 'none' : types.map(([type, n]) => `${type} (${n})`).join(', ');
}

/** A terminal's progress line: how far through the log (by time), attempts checked and findings so far. */
export function formatProgress(progress: { attempts: number; findings: number; fraction: number }): string {
  const width = 24;
  const done = Math.round(progress.fraction * width);
  return `[${'#'.repeat(done)}${'-'.repeat(width - done)}] ${Math.round(progress.fraction * 100)}%  ${progress.attempts} attempts checked, ${progress.findings} finding(s)`;
}

/** The last line: findings first; without any, whether some chain could not be read (exit 3). */
export function resultLine(findingCount: number, unreachable: number): string {
  if (findingCount > 0) return `result: ${findingCount} finding(s)`;
  return unreachable === 0
    ? 'result: no findings'
    : `result: no findings, but ${unreachable} transaction(s) could not be read: check again`;
}

/** 0 no findings, 1 findings, 3 no findings but a chain that could not be read. */
export function exitCode(findingCount: number, unreachable: number): number {
  return findingCount > 0 ? 1 : unreachable > 0 ? 3 : 0;
}
