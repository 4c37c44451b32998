import { contentText, type Message } from '@rxagent/core';

/**
 * One tool call of the transcript with what it returned.
 *
 * @example
 * const seen: ToolOutput = { name: 'read', args: { path: 'README.md' }, text: '     1\t# Hi', isError: false };
 */
export interface ToolOutput {
  name: string;
  args: Record<string, unknown>;
  text: string;
  isError: boolean;
}

/**
 * Pairs every tool call of the transcript with its result (calls without one are left out).
 *
 * @example
 * const outputs = toolOutputs(request.messages);
 * outputs.find((o) => o.name === 'list')?.text;
 */
export function toolOutputs(messages: readonly Message[]): ToolOutput[] {
  const results = new Map<string, { text: string; isError: boolean }>();
  for (const m of messages) {
    if (m.role === 'tool') results.set(m.toolCallId, { text: contentText(m), isError: m.isError });
  }
  const outputs: ToolOutput[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    for (const part of m.content) {
      const result = part.type === 'tool-call' ? results.get(part.id) : undefined;
      if (part.type !== 'tool-call' || !result) continue;
      const args = typeof part.args === 'object' && part.args !== null ? part.args : {};
      outputs.push({ name: part.name, args: args as Record<string, unknown>, ...result });
    }
  }
  return outputs;
}

/**
 * The entries of a `list` result (one path per line), without its trailing notes.
 *
 * @example
 * listEntries('README.md\nsrc/\n\n[Stopped at 2 entries: …]'); // ['README.md', 'src/']
 */
export function listEntries(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('['));
}

/**
 * The file text of a `read` result: line numbers and the trailing note removed.
 *
 * @example
 * fileText('     1\t# Title\n     2\tHello'); // '# Title\nHello'
 */
export function fileText(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const numbered = /^ *\d+\t(.*)$/.exec(line);
    if (numbered) lines.push(numbered[1] ?? '');
  }
  return lines.join('\n');
}

/**
 * What a README says first.
 *
 * @example
 * const r: ReadmeFacts = { title: 'rxagent', summary: 'An agent loop for TypeScript.' };
 */
export interface ReadmeFacts {
  title?: string;
  summary?: string;
  /** Second-level headings: the README's own outline. */
  sections: string[];
}

/**
 * The first heading, the first paragraph of prose (badges, images and HTML skipped) and the
 * section headings of a README.
 *
 * @example
 * readmeFacts('# Demo\n\n[![ci](x)](y)\nIt answers questions.\n\n## Usage');
 * // { title: 'Demo', summary: 'It answers questions.', sections: ['Usage'] }
 */
export function readmeFacts(text: string): ReadmeFacts {
  const lines = text.split('\n');
  let title: string | undefined;
  const paragraph: string[] = [];
  const sections: string[] = [];
  let inCode = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (line.startsWith('```')) {
      inCode = !inCode;
      if (paragraph.length) break;
      continue;
    }
    if (inCode) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      if (!title && heading[1] === '#') title = heading[2];
      else if (paragraph.length) break;
      continue;
    }
    if (line === '') {
      if (paragraph.length) break;
      continue;
    }
    if (/^(\[!\[|!\[|<|---|===|\|)/.test(line)) continue;
    paragraph.push(line);
  }
  let inSectionCode = false;
  for (const raw of lines) {
    if (raw.trim().startsWith('```')) inSectionCode = !inSectionCode;
    const section = inSectionCode ? null : /^##\s+(.*)$/.exec(raw.trim());
    if (section?.[1]) sections.push(section[1]);
  }
  const summary = paragraph.join(' ').trim();
  return { title: title ?? firstLine(lines), summary: summary || undefined, sections };
}

function firstLine(lines: string[]): string | undefined {
  return lines.map((l) => l.trim()).find((l) => l !== '');
}

/**
 * What a project manifest says about the project.
 *
 * @example
 * const m: ManifestFacts = { name: 'my-app', description: 'Does things', scripts: ['build', 'test'] };
 */
export interface ManifestFacts {
  name?: string;
  description?: string;
  version?: string;
  scripts: string[];
  dependencies: string[];
}

/**
 * The name, description, scripts and dependencies of a manifest: package.json, or the
 * `name = "…"` lines of pyproject.toml / Cargo.toml, or the module line of go.mod.
 *
 * @example
 * manifestFacts('package.json', '{"name":"x","description":"A tool","scripts":{"test":"jest"}}');
 * // { name: 'x', description: 'A tool', scripts: ['test'], dependencies: [] }
 */
export function manifestFacts(path: string, text: string): ManifestFacts {
  if (path.endsWith('.json')) {
    try {
      const json = JSON.parse(text) as Record<string, unknown>;
      return {
        name: stringField(json.name),
        description: stringField(json.description),
        version: stringField(json.version),
        scripts: keys(json.scripts),
        dependencies: [...keys(json.dependencies), ...keys(json.devDependencies)],
      };
    } catch {
      return { scripts: [], dependencies: [] };
    }
  }
  const field = (name: string) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm').exec(text)?.[1];
  const module = /^module\s+(\S+)/m.exec(text)?.[1];
  return {
    name: field('name') ?? module,
    description: field('description'),
    version: field('version'),
    scripts: [],
    dependencies: [],
  };
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function keys(value: unknown): string[] {
  return typeof value === 'object' && value !== null ? Object.keys(value) : [];
}
