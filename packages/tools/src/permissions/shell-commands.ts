import { forEachChild, parse, type Command, type SyntaxNode, type Word } from 'unbash';

/**
 * One simple command a shell line runs: its words (quotes removed; `null` for a word whose value
 * is only known when it runs, such as `$X` or a glob), the command name reduced to its base name
 * (`/bin/rm` → `rm`) and wrappers taken off (`env X=1 nice command rm` → `rm`), and whether it
 * writes through a redirection (`> file`).
 */
export interface SimpleCommand {
  words: (string | null)[];
  writes: boolean;
}

/**
 * What a shell line runs, as far as it can be told without running it: every simple command in
 * pipelines, lists, subshells, functions, substitutions (`$(…)`, backticks, `<(…)`) and here
 * documents, and what `sh -c`, `eval`, `xargs` and `find -exec` run. `unknown` says why the
 * rest cannot be told (a command name that is only known when it runs, input that does not
 * parse): permission rules then deny.
 */
export interface ShellAnalysis {
  commands: SimpleCommand[];
  unknown?: string;
}

const MAX_NESTING = 8;
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'ash', 'busybox']);
// Wrappers that run their operands as a command, with the options that take a value.
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  nice: new Set(['-n', '--adjustment']),
  time: new Set(['-f', '--format', '-o', '--output']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-R', '-T', '-U', '--user', '--group']),
  doas: new Set(['-u', '-C']),
  xargs: new Set(['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args']),
  chroot: new Set(),
  setsid: new Set(),
  strace: new Set(['-e', '-o', '-p', '-s', '-u']),
};
const EXEC_FLAGS = new Set(['-exec', '-execdir', '-ok', '-okdir']);
const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);

/** The value of a word when it needs no expansion to be known, else `null`. */
function staticValue(word: Word): string | null {
  const plain = (word.parts ?? []).every(
    (part) =>
      part.type === 'Literal' ||
      part.type === 'SingleQuoted' ||
      part.type === 'AnsiCQuoted' ||
      (part.type === 'DoubleQuoted' && part.parts.every((child) => child.type === 'Literal')),
  );
  return plain ? word.value : null;
}

const baseName = (name: string) => name.slice(name.lastIndexOf('/') + 1);

class Analyzer {
  readonly commands: SimpleCommand[] = [];
  unknown: string | undefined;

  constructor(private readonly depth: number) {}

  line(source: string): void {
    if (this.depth > MAX_NESTING) return this.fail('commands nested too deeply');
    let script;
    try {
      script = parse(source);
    } catch (error) {
      return this.fail(`it does not parse (${error instanceof Error ? error.message : String(error)})`);
    }
    this.visit(script);
  }

  fail(reason: string): void {
    this.unknown ??= reason;
  }

  private visit(node: SyntaxNode): void {
    const errors = (node as { errors?: readonly { message: string }[] }).errors;
    if (errors && errors.length > 0) this.fail(`it does not parse (${errors[0]!.message})`);
    if (node.type === 'Command') this.command(node);
    forEachChild(node, (child) => this.visit(child));
  }

  private command(node: Command): void {
    if (node.name === undefined) return; // assignments or redirections only
    const words = [node.name, ...node.args].map((a) => (a.type === 'Word' ? staticValue(a) : a.text));
    const writes = node.redirects.some(
      (r) => r.type === 'Redirect' && WRITE_REDIRECTS.has(r.operator) && r.target?.value !== '/dev/null',
    );
    this.simple(words, writes);
  }

  /** A simple command's words: wrappers taken off, what it runs in turn looked into. */
  simple(given: (string | null)[], writes: boolean): void {
    let words = given;
    for (let guard = 0; guard < 16; guard++) {
      const head = words[0];
      if (head === undefined) return;
      if (head === null) return this.fail('a command name is only known when it runs');
      const name = baseName(head);
      const valued = WRAPPERS[name];
      if (!valued) break;
      let i = 1;
      while (i < words.length) {
        const word = words[i] as string | null;
        if (word === null) return this.fail(`"${name}" is given an argument only known when it runs`);
        if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) i++;
        else if (name === 'env' && (word === '-S' || word.startsWith('--split-string')))
          return this.fail('"env -S" splits its argument into a command');
        else if (name === 'timeout' && !word.startsWith('-')) {
          i++; // the duration
          break;
        } else if (word === '--') {
          i++;
          break;
        } else if (word.startsWith('-')) i += valued.has(word) ? 2 : 1;
        else break;
      }
      this.commands.push({ words: [name, ...words.slice(1, i)], writes: false });
      words = words.slice(i);
    }
    const [head, ...rest] = words;
    if (head === undefined || head === null) return;
    const name = baseName(head);
    this.commands.push({ words: [name, ...rest], writes });
    this.nested(name, rest);
  }

  /** Commands that run their arguments as shell code or as a command. */
  private nested(name: string, args: (string | null)[]): void {
    const inner = () => new Analyzer(this.depth + 1);
    if (SHELLS.has(name)) {
      const flag = args.findIndex(
        (a) => a === null || (/^-[A-Za-z]*c[A-Za-z]*$/.test(a) && !a.startsWith('--')),
      );
      if (flag < 0) return;
      const script = args[flag + 1];
      if (args[flag] === null || script === null || script === undefined)
        return this.fail(`"${name} -c" runs code only known when it runs`);
      this.merge(inner(), script);
    } else if (name === 'eval') {
      if (args.some((a) => a === null)) return this.fail('"eval" runs code only known when it runs');
      this.merge(inner(), args.join(' '));
    } else if (name === 'find') {
      args.forEach((arg, i) => {
        if (arg === null || !EXEC_FLAGS.has(arg)) return;
        const end = args.findIndex((a, j) => j > i && (a === ';' || a === '+'));
        this.simple(args.slice(i + 1, end < 0 ? undefined : end), false);
      });
    }
  }

  private merge(analyzer: Analyzer, source: string): void {
    analyzer.line(source);
    this.commands.push(...analyzer.commands);
    if (analyzer.unknown) this.fail(analyzer.unknown);
  }
}

/**
 * Every simple command `source` runs, by a real shell parser (`unbash`), and why the rest
 * cannot be told, if it cannot.
 *
 * @example
 * analyzeShell('X=1 \\rm a | xargs /bin/rm').commands.map((c) => c.words[0]); // ['rm', 'xargs', 'rm']
 */
export function analyzeShell(source: string): ShellAnalysis {
  const analyzer = new Analyzer(0);
  analyzer.line(source);
  return analyzer.unknown === undefined
    ? { commands: analyzer.commands }
    : { commands: analyzer.commands, unknown: analyzer.unknown };
}
