import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envVariables } from '@svc/platform';
import { ENV_DTOS } from './app-config';

const page = join(__dirname, '..', '..', '..', '..', 'docs', 'operations', 'configuration.md');

/** docs/operations/configuration.md "Variables": each table row's first cell names one variable, its second cell the default. */
function readmeTable(): Map<string, string> {
  const section = /^## Variables\n([\s\S]*?)^## /m.exec(readFileSync(page, 'utf8'))?.[1] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const [, name, defaultCell] = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|/.exec(line) ?? [];
    if (name) rows.set(name, (defaultCell ?? '').trim());
  }
  return rows;
}

const declared = Object.values(ENV_DTOS).flatMap((dto) => envVariables(dto).map((name) => ({ dto, name })));

describe('docs/operations/configuration.md "Variables" table', () => {
  const table = readmeTable();

  it('names every variable the apps read, and only those', () => {
    expect([...table.keys()].sort()).toEqual(declared.map((v) => v.name).sort());
  });

  it('declares each variable in one DTO only', () => {
    const names = declared.map((v) => v.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it("gives each variable the code's default", () => {
    const wrong = declared.flatMap(({ dto, name }) => {
      const value = (new dto() as unknown as Record<string, string | number | boolean | undefined>)[name];
      if (value === undefined || value === '') return [];
      const cell = table.get(name) ?? '';
      return cell.includes(`\`${String(value)}\``)
        ? []
        : [`${name}: the page says ${cell}, the code ${String(value)}`];
    });
    expect(wrong).toEqual([]);
  });
});
