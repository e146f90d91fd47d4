import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KNOWN_FAILED_SOURCE_REASON_CODES } from '../enums/failed-source-reason-code';
import { QUOTE_STATUSES } from '../enums/quote-status';
import { ERROR_CODES, isErrorCode } from './error-codes';

const DOC_PATH = join(__dirname, '../../../../docs/errors.md');
const doc = readFileSync(DOC_PATH, 'utf8');

/** Table rows of the form | `code` | 400 | when |. */
function documentedCodes(markdown: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const match of markdown.matchAll(/^\|\s*`([a-z0-9_]+)`\s*\|\s*(\d{3})\s*\|/gm)) {
    const [, code = '', status = ''] = match;
    rows.set(code, [...(rows.get(code) ?? []), Number(status)]);
  }
  return rows;
}

describe('docs/errors.md', () => {
  const rows = documentedCodes(doc);

  it('documents every registry code once, with its HTTP status', () => {
    const expected = Object.entries(ERROR_CODES).map(([code, spec]) => [code, [spec.status]]);
    const actual = Object.keys(ERROR_CODES).map((code) => [code, rows.get(code) ?? []]);
    expect(actual).toEqual(expected);
  });

  it('has no code table row for a code missing from the registry', () => {
    expect([...rows.keys()].filter((code) => !isErrorCode(code))).toEqual([]);
  });

  it('names no snake_case code anywhere that is neither registered nor a documented non-error value', () => {
    const allowed = new Set<string>([...KNOWN_FAILED_SOURCE_REASON_CODES, ...QUOTE_STATUSES]);
    const named = [...doc.matchAll(/`([a-z0-9]+(?:_[a-z0-9]+)+)`/g)].map((match) => match[1] ?? '');
    expect([...new Set(named)].filter((code) => !isErrorCode(code) && !allowed.has(code))).toEqual([]);
  });

  it('documents the error body, the version header and reasonCode', () => {
    for (const text of [
      '`apiVersion`',
      '`error`',
      '`code`',
      '`message`',
      '`path`',
      '`details`',
      'X-Service-Api-Version: 1',
      'failedSources[].reasonCode',
    ]) {
      expect([text, doc.includes(text)]).toEqual([text, true]);
    }
  });
});
