import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The command blocks of the documentation a partner follows, and the marker above each that says how it is tested.
 * Every ```sh / ```bash / ```console / ```shell block in these files carries, right above it (blank lines allowed
 * between), one of:
 *
 *   <!-- doc-test: skip <reason> -->          not run, and why (a reason is required)
 *   <!-- doc-test: run [option]... -->        run by doc-commands.e2e.spec.ts against what `npm start` runs
 *
 * Options of `run` (values without spaces, or in double quotes):
 *   group=<name>     blocks of one group run one after another, in document order, and share captured values;
 *                    different groups run at the same time (default group: the file)
 *   after=<group>    the group starts once that group has finished (e.g. both use the same funded wallet)
 *   pause=<seconds>  wait this long before the block (a person reading the previous answer)
 *   expect="<text>"  the block's output (stdout and stderr) contains this text; may repeat
 *   exit=<code>      the exit code the block must end with (default 0)
 *   with=<fixture>   a named set-up of the runner (environment, working directory) the block needs
 *   webhook=<event>  after the block, `npm start`'s receiver has printed a verified <event> webhook for the
 *                    attempt the group captured
 *
 * Each command of a run block (a line, or lines joined by a trailing backslash) runs in its own bash, as written, one
 * after another; the first that fails ends the block. Placeholders: a `<name>` in a command (not in its comment) is
 * replaced by the value an earlier command of the same group printed as the JSON field "name" (the latest one), e.g.
 * `<intentSessionId>` from the quote's answer. A placeholder no earlier command printed fails the block.
 */

export interface RunOptions {
  group: string | null;
  after: string | null;
  pauseSeconds: number;
  expect: string[];
  exit: number;
  fixture: string | null;
  webhook: string | null;
}

export type Marker = { kind: 'skip'; reason: string } | { kind: 'run'; options: RunOptions };

export interface CommandBlock {
  /** Repository-relative path of the Markdown file. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  /** The block's text, as a shell would read it. */
  text: string;
  /** The marker above the block; null when there is none. */
  marker: Marker | null;
  /** Why the marker above the block could not be read (then `marker` is null). */
  markerError: string | null;
}

const SHELL_LANGS = new Set(['sh', 'bash', 'console', 'shell']);
const OPTION_NAMES = new Set(['group', 'after', 'pause', 'expect', 'exit', 'with', 'webhook']);

/** The Markdown files whose command blocks must run or say why not. */
export function documentedFiles(root: string): string[] {
  const under = (dir: string, keep: (name: string) => boolean): string[] =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : under(path, keep);
          return keep(entry.name) ? [path] : [];
        })
      : [];
  return [
    'README.md',
    ...under(join('docs', 'partners'), (name) => name.endsWith('.md')),
    join('libs', 'partner-client', 'README.md'),
    ...under('examples', (name) => name === 'README.md'),
  ]
    .filter((file) => existsSync(join(root, file)))
    .map((file) => relative(root, join(root, file)));
}

/** Splits a marker's options: `key=value` or `key="value with spaces"`. */
function tokens(text: string): [string, string][] {
  const out: [string, string][] = [];
  const pattern = /([a-z]+)=(?:"((?:[^"\\]|\\.)*)"|(\S+))|(\S+)/g;
  for (const m of text.matchAll(pattern)) {
    if (m[4] !== undefined) throw new Error(`"${m[4]}" is not an option (key=value)`);
    out.push([m[1], m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3]]);
  }
  return out;
}

/** Reads the text inside `<!-- doc-test: … -->`. Throws with the reason when it is not a valid marker. */
export function parseMarker(body: string): Marker {
  const [, kind, rest = ''] = /^(skip|run)\b\s*([\s\S]*)$/.exec(body.trim()) ?? [];
  if (kind === 'skip') {
    if (rest.trim() === '')
      throw new Error('a skip marker needs its reason: <!-- doc-test: skip <reason> -->');
    return { kind: 'skip', reason: rest.trim() };
  }
  if (kind !== 'run') throw new Error(`"${body.trim()}": a marker is "skip <reason>" or "run [options]"`);
  const options: RunOptions = {
    group: null,
    after: null,
    pauseSeconds: 0,
    expect: [],
    exit: 0,
    fixture: null,
    webhook: null,
  };
  for (const [key, value] of tokens(rest)) {
    if (!OPTION_NAMES.has(key)) throw new Error(`unknown option ${key}`);
    if (key === 'group') options.group = value;
    if (key === 'after') options.after = value;
    if (key === 'with') options.fixture = value;
    if (key === 'webhook') options.webhook = value;
    if (key === 'expect') options.expect.push(value);
    if (key === 'pause' || key === 'exit') {
      if (!/^\d+$/.test(value)) throw new Error(`${key} must be a whole number, not "${value}"`);
      if (key === 'pause') options.pauseSeconds = Number(value);
      else options.exit = Number(value);
    }
  }
  return { kind: 'run', options };
}

/** Every shell command block of one Markdown text, with the marker right above it. */
export function commandBlocks(file: string, markdown: string): CommandBlock[] {
  const lines = markdown.split('\n');
  const blocks: CommandBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, lang] = open;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    if (SHELL_LANGS.has(lang.toLowerCase())) {
      let above = i - 1;
      while (above >= 0 && lines[above].trim() === '') above--;
      const comment = above >= 0 ? /^\s*<!--\s*doc-test:([\s\S]*?)-->\s*$/.exec(lines[above]) : null;
      let marker: Marker | null = null;
      let markerError: string | null = null;
      if (comment) {
        try {
          marker = parseMarker(comment[1]);
        } catch (err) {
          markerError = (err as Error).message;
        }
      }
      blocks.push({
        file,
        line: i + 1,
        lang: lang.toLowerCase(),
        text: lines
          .slice(i + 1, end)
          .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
          .join('\n'),
        marker,
        markerError,
      });
    }
    i = end;
  }
  return blocks;
}

/** The command blocks of every documented file under `root`. */
export function repositoryBlocks(root: string): CommandBlock[] {
  return documentedFiles(root).flatMap((file) => commandBlocks(file, readFileSync(join(root, file), 'utf8')));
}

/** The JSON string fields of a command's output (`"name": "value"`), the latest value of each name winning. */
export function capturedValues(output: string, into: Map<string, string> = new Map()): Map<string, string> {
  for (const m of output.matchAll(/"([A-Za-z][A-Za-z0-9]*)"\s*:\s*"([^"\\]*)"/g)) into.set(m[1], m[2]);
  return into;
}

/** Where a shell comment starts in `line` (a `#` outside quotes, at the start or after a blank), or -1. */
export function commentStart(line: string): number {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '\\') i++;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]))) return i;
  }
  return -1;
}

/**
 * The commands of a block, one per entry: lines joined where one ends with a backslash, comment-only and blank
 * lines left out, each command's trailing comment kept as written.
 */
export function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    current = current === '' ? line : `${current}\n${line}`;
    if (/\\\s*$/.test(line)) continue;
    const code = current.slice(0, commentStart(current) === -1 ? undefined : commentStart(current)).trim();
    if (code !== '') commands.push(current);
    current = '';
  }
  if (current.trim() !== '') commands.push(current);
  return commands;
}

/**
 * The command with each `<name>` outside its comment replaced by its captured value; throws naming a placeholder no
 * earlier command printed.
 */
export function fillPlaceholders(command: string, values: ReadonlyMap<string, string>): string {
  const cut = commentStart(command);
  const code = cut === -1 ? command : command.slice(0, cut);
  const filled = code.replace(/<([A-Za-z][A-Za-z0-9]*)>/g, (whole, name: string) => {
    const value = values.get(name);
    if (value === undefined)
      throw new Error(`${whole}: no earlier command of this group printed a JSON field "${name}"`);
    return value;
  });
  return filled + (cut === -1 ? '' : command.slice(cut));
}

/** Run blocks by group, each group's blocks in document order (files in the order given). */
export function groupsOf(blocks: readonly CommandBlock[]): Map<string, CommandBlock[]> {
  const groups = new Map<string, CommandBlock[]>();
  for (const block of blocks) {
    if (block.marker?.kind !== 'run') continue;
    const name = block.marker.options.group ?? block.file;
    groups.set(name, [...(groups.get(name) ?? []), block]);
  }
  return groups;
}

/** What is wrong with the documentation's markers: unmarked blocks, unreadable markers, unknown groups or fixtures. */
export function markerProblems(blocks: readonly CommandBlock[], fixtures: ReadonlySet<string>): string[] {
  const groups = groupsOf(blocks);
  return blocks.flatMap((b) => {
    const at = `${b.file}:${b.line}`;
    if (b.markerError !== null) return [`${at}: ${b.markerError}`];
    if (b.marker === null)
      return [
        `${at}: a command block without a marker: run it (<!-- doc-test: run … -->) or say why not (<!-- doc-test: skip <reason> -->)`,
      ];
    if (b.marker.kind === 'skip') return [];
    const { after, fixture } = b.marker.options;
    return [
      ...(after !== null && !groups.has(after) ? [`${at}: after=${after} names no group`] : []),
      ...(fixture !== null && !fixtures.has(fixture)
        ? [`${at}: with=${fixture} is no fixture of the runner`]
        : []),
    ];
  });
}
