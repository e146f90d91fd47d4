import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENV_DTOS } from '@svc/composition';
import { type EnvDto, envSecrets, envVariables } from '@svc/platform';

export const REPO_ROOT = join(__dirname, '..', '..');
export const ENV_EXAMPLE = '.env.example';
/** Its "Variables" table gives each variable's meaning (readme-env-table.spec.ts keeps it in step with the DTOs). */
const CONFIGURATION_PAGE = 'docs/operations/configuration.md';

/** The heading of each part of ENV_DTOS, in the order the file lists them. */
const PARTS: Record<keyof typeof ENV_DTOS, string> = {
  service: 'The service (ServiceEnv, libs/platform)',
  providers: 'Providers: Relay, Across, Mayan (ProvidersEnv, libs/providers)',
  kafka: 'Kafka, with BUS=kafka (KafkaEnv, libs/messaging)',
  tracing: 'OpenTelemetry traces (TracingEnv, libs/platform)',
};

const WIDTH = 118;

const HEADER = [
  `Every variable the service apps read, generated from the DTOs they are validated against at boot by`,
  '`npm run env:example` (do not edit: a spec fails when this file differs from what it writes). Each one is',
  'commented out at its default, so the file as it stands changes nothing. Copy it to `.env` (ignored by git),',
  'uncomment what you change and start an app with `node --env-file=.env ...`. Secrets are never given a value here:',
  "set them from your secret store, like each partner's `secretEnv` variable in PARTNERS_FILE.",
  `Each variable is described in ${CONFIGURATION_PAGE} "Variables".`,
];

/** `.env.example` as `npm run env:example` writes it. */
export function envExampleText(root = REPO_ROOT): string {
  const meanings = variablesTable(readFileSync(join(root, CONFIGURATION_PAGE), 'utf8'));
  const lines = comment(HEADER.join(' '));
  for (const [part, dto] of Object.entries(ENV_DTOS) as [keyof typeof ENV_DTOS, EnvDto][]) {
    lines.push('', `# ${'='.repeat(WIDTH - 2)}`, `# ${PARTS[part]}`, `# ${'='.repeat(WIDTH - 2)}`);
    const defaults = new dto() as Record<string, unknown>;
    const secrets = envSecrets(dto);
    for (const name of envVariables(dto)) {
      const row = meanings.get(name);
      if (!row) throw new Error(`${name} has no row in ${CONFIGURATION_PAGE} "Variables"`);
      const value = defaults[name];
      const secret = secrets.includes(name);
      const notes = [
        row.meaning,
        value === undefined && row.unset ? `Default: ${row.unset}.` : '',
        secret ? 'A secret: never give it a value in a file under version control.' : '',
      ];
      lines.push('', ...comment(notes.filter(Boolean).join(' ')));
      lines.push(`# ${name}=${secret || value === undefined ? '' : envValue(name, value)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

interface VariableRow {
  meaning: string;
  /** What applies when the variable is unset, for those without a literal default (`— (off)` → `off`). */
  unset: string | null;
}

/** The page's "Variables" table: each row's variable, its default cell and its meaning, as plain text. */
function variablesTable(page: string): Map<string, VariableRow> {
  const section = /^## Variables\n([\s\S]*?)^## /m.exec(page)?.[1] ?? '';
  const rows = new Map<string, VariableRow>();
  for (const line of section.split('\n')) {
    const cells = /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|([^|]*)\|([^|]*)\|/.exec(line);
    if (!cells) continue;
    const [, name, defaultCell, meaning] = cells as unknown as [string, string, string, string];
    const fallback = plain(defaultCell).replace(/^—\s*(\((.*)\))?$/, '$2');
    rows.set(name, { meaning: sentence(plain(meaning)), unset: fallback === '' ? null : fallback });
  }
  return rows;
}

/** Markdown to the plain text of a comment: links keep their text, code keeps its backticks. */
function plain(markdown: string): string {
  return markdown
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

function sentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

/** `text` as `# ` comment lines of at most WIDTH characters. */
function comment(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(' ')) {
    if (line.length + 1 + word.length > WIDTH && line !== '#') {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** A default as a dotenv value: written bare, which every default is; anything that would need quoting is refused. */
function envValue(name: string, value: unknown): string {
  const text = String(value);
  if (!/^[A-Za-z0-9_.,:/@+-]*$/.test(text))
    throw new Error(`${name}: the default ${JSON.stringify(text)} would need quoting in ${ENV_EXAMPLE}`);
  return text;
}
