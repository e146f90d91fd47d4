import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const root = resolve(__dirname, '..', '..');

/** README.md, every Markdown file under docs/, and the READMEs of the SDK and the examples. */
function markdownFiles(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : under(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...under('docs'), 'libs/partner-client/README.md', ...under('examples')];
}

interface Link {
  file: string;
  line: number;
  target: string;
}

/** Inline links and reference definitions, outside fenced code blocks and inline code spans. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  let fenced = false;
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .forEach((text, i) => {
      if (/^\s*(```|~~~)/.test(text)) fenced = !fenced;
      if (fenced) return;
      const line = text.replace(/`[^`]*`/g, '');
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
        links.push({ file, line: i + 1, target: m[1] });
      const ref = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
      if (ref) links.push({ file, line: i + 1, target: ref[1] });
    });
  return links;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of readFileSync(file, 'utf8').matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

/** Why a relative link is dead, or null when it resolves inside the repository. */
function problem(link: Link): string | null {
  const [pathPart = '', anchor] = link.target.split('#', 2);
  const target =
    pathPart === '' ? join(root, link.file) : resolve(root, dirname(link.file), decodeURI(pathPart));
  if (target !== root && !target.startsWith(root + sep)) return 'points outside the repository';
  if (!existsSync(target)) return `no such file: ${relative(root, target)}`;
  if (anchor && target.endsWith('.md') && statSync(target).isFile() && !anchorsOf(target).has(anchor))
    return `no heading for #${anchor} in ${relative(root, target)}`;
  return null;
}

describe('relative links in README.md, docs/ and the partner SDK and examples', () => {
  const files = markdownFiles();
  const links = files.flatMap(linksOf).filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));

  it('finds the documents and their links', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', join('docs', 'partners', 'signing.md')]));
    expect(links.length).toBeGreaterThan(20);
  });

  it('every one resolves to a file (and heading) in the repository', () => {
    const dead = links.flatMap((l) => {
      const why = problem(l);
      return why === null ? [] : [`${l.file}:${l.line} ${l.target}: ${why}`];
    });
    expect(dead).toEqual([]);
  });

  it('the checker catches a dead file, a dead heading and a link leaving the repository', () => {
    const at = (target: string): Link => ({ file: 'README.md', line: 1, target });
    expect(problem(at('docs/errors.md#authentication'))).toBeNull();
    expect(problem(at('docs/no-such-page.md'))).toMatch(/no such file/);
    expect(problem(at('docs/errors.md#no-such-heading'))).toMatch(/no heading/);
    expect(problem(at('../shared/spec/external-intent-api.md'))).toMatch(/outside the repository/);
  });
});
