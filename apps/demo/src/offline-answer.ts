import {
  fileText,
  listEntries,
  manifestFacts,
  readmeFacts,
  type ManifestFacts,
  type ReadmeFacts,
  type ToolOutput,
} from './folder-facts.js';

/**
 * Everything the offline model learnt from its tool calls.
 *
 * @example
 * const facts: OfflineFacts = gatherFacts(toolOutputs(request.messages), 'What is this?');
 */
export interface OfflineFacts {
  question: string;
  /** The top-level entries, when the folder could be listed. */
  entries?: string[];
  readme?: { path: string; lines: number } & ReadmeFacts;
  manifest?: { path: string } & ManifestFacts;
  subfolders: { path: string; entries: string[] }[];
  otherFiles: { path: string; lines: number; firstLine?: string }[];
  /** Calls that failed, with their error text (first line). */
  failures: { call: string; error: string }[];
  /** Calls of other tools (an MCP server's): the tool and what it answered (first line). */
  others: { name: string; answer: string }[];
}

const README = /^readme(\.(md|markdown|rst|txt))?$/i;
const MANIFESTS = ['package.json', 'pyproject.toml', 'Cargo.toml', 'go.mod', 'deno.json', 'composer.json'];
const NOT_SHOWN = new Set(['.git/', 'node_modules/']);
const MAX_NAMES = 10;
const MAX_SUMMARY_CHARS = 320;

/**
 * Whether a top-level file name is a README the offline plan reads.
 *
 * @example
 * isReadme('README.md'); // true
 */
export function isReadme(name: string): boolean {
  return README.test(name);
}

/**
 * The manifests the offline plan reads, in order of preference.
 *
 * @example
 * MANIFEST_FILES.includes('package.json'); // true
 */
export const MANIFEST_FILES: readonly string[] = MANIFESTS;

/**
 * Sorts the tool outputs of a transcript into facts about the folder.
 *
 * @example
 * gatherFacts([{ name: 'list', args: {}, text: 'README.md\nsrc/', isError: false }], 'What is this?').entries;
 * // ['README.md', 'src/']
 */
export function gatherFacts(outputs: readonly ToolOutput[], question: string): OfflineFacts {
  const facts: OfflineFacts = { question, subfolders: [], otherFiles: [], failures: [], others: [] };
  for (const output of outputs) {
    const path = typeof output.args.path === 'string' ? output.args.path : '.';
    if (output.isError) {
      facts.failures.push({ call: `${output.name} ${path}`, error: output.text.split('\n')[0] ?? '' });
      continue;
    }
    if (output.name === 'list') {
      const entries = listEntries(output.text);
      if (path === '.' || path === '') facts.entries = entries;
      else
        facts.subfolders.push({
          path,
          entries: entries.map((e) => e.slice(e.lastIndexOf('/', e.length - 2) + 1)),
        });
    } else if (output.name !== 'read') {
      facts.others.push({
        name: output.name,
        answer: output.text.split('\n').find((l) => l.trim() !== '') ?? '',
      });
    } else {
      const text = fileText(output.text);
      const lines = text === '' ? 0 : text.split('\n').length;
      if (isReadme(baseName(path))) facts.readme = { path, lines, ...readmeFacts(text) };
      else if (MANIFESTS.includes(baseName(path))) facts.manifest = { path, ...manifestFacts(path, text) };
      else facts.otherFiles.push({ path, lines, firstLine: text.split('\n').find((l) => l.trim() !== '') });
    }
  }
  return facts;
}

/**
 * The offline model's answer: what the folder is (manifest, README) and how it is organised
 * (the listings), built only from what the tools returned, then a line saying that this is
 * the scripted model and how to get a real one.
 *
 * @example
 * composeAnswer(gatherFacts(toolOutputs(request.messages), question));
 */
export function composeAnswer(facts: OfflineFacts): string {
  const parts: string[] = [];
  const { manifest, readme } = facts;
  if (manifest?.name) {
    const what = manifest.description ? `: ${sentence(manifest.description)}` : '.';
    const version = manifest.version ? ` ${manifest.version}` : '';
    parts.push(`This is ${manifest.name}${version} (from ${manifest.path})${what}`);
  } else if (manifest) {
    parts.push(`There is a ${manifest.path}, but it names no project.`);
  }
  if (readme) {
    const title = readme.title ? ` — "${readme.title}"` : '';
    const lines = [`${readme.path}${title} (${lineCount(readme.lines)}):`];
    if (readme.summary) lines.push(`  ${cut(readme.summary, MAX_SUMMARY_CHARS)}`);
    if (readme.sections.length) lines.push(`  Sections: ${names(readme.sections, 8)}.`);
    parts.push(lines.join('\n'));
  }
  for (const file of facts.otherFiles) {
    const first = file.firstLine ? `, starting with "${cut(file.firstLine.trim(), 80)}"` : '';
    parts.push(`${file.path} has ${lineCount(file.lines)}${first}.`);
  }
  parts.push(organisation(facts));
  if (manifest?.scripts.length) parts.push(`${manifest.path} scripts: ${names(manifest.scripts, 12)}.`);
  for (const other of facts.others) parts.push(`${other.name} answered: ${other.answer}`);
  if (facts.failures.length) {
    parts.push(`What failed: ${facts.failures.map((f) => `${f.call} (${f.error})`).join('; ')}.`);
  }
  parts.push(
    'This answer comes from the built-in scripted model: it always lists the folder, reads the ' +
      'README and the manifest and reports what it found, whatever the question. Set ' +
      'OPENAI_API_KEY or ANTHROPIC_API_KEY (or pass --base-url for a local server) to have a ' +
      `real model answer "${facts.question}".`,
  );
  return parts.join('\n\n');
}

function organisation(facts: OfflineFacts): string {
  const { entries } = facts;
  if (!entries) return 'I could not list the folder.';
  if (entries.length === 0) return 'The folder is empty.';
  const shown = entries.filter((e) => !NOT_SHOWN.has(e));
  const folders = shown.filter((e) => e.endsWith('/'));
  const files = shown.filter((e) => !e.endsWith('/'));
  const lines = [`How it is organised (${entries.length} entries at the top level):`];
  if (folders.length) lines.push(`  folders: ${names(folders, MAX_NAMES)}`);
  if (files.length) lines.push(`  files: ${names(files, MAX_NAMES)}`);
  for (const sub of facts.subfolders) {
    const inside = sub.entries.length ? names(sub.entries, MAX_NAMES) : '(empty)';
    lines.push(`  ${sub.path.replace(/\/?$/, '/')} holds ${inside}`);
  }
  return lines.join('\n');
}

function names(list: readonly string[], max: number): string {
  const shown = list.slice(0, max).join(', ');
  return list.length > max ? `${shown}… (${list.length - max} more)` : shown;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const space = head.lastIndexOf(' ');
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[,;:]$/, '')}…`;
}

function lineCount(n: number): string {
  return `${n} ${n === 1 ? 'line' : 'lines'}`;
}

function sentence(text: string): string {
  return /[.!?…]$/.test(text) ? text : `${text}.`;
}

function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
