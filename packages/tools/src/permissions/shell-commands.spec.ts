import { analyzeShell } from './shell-commands.js';

const names = (source: string) => analyzeShell(source).commands.map((c) => c.words.join(' '));

describe('analyzeShell', () => {
  it('finds every simple command, with quotes, paths, prefixes and wrappers taken off', () => {
    expect(names('X=1 \\rm -f a | sudo -u root /bin/ls "b c" && env -i A=1 nice -n 5 git status')).toEqual([
      'rm -f a',
      'sudo -u root',
      'ls b c',
      'env -i A=1',
      'nice -n 5',
      'git status',
    ]);
    expect(names("cat <<EOF\n$(whoami)\nEOF\nsh -c 'touch x; echo `id`'")).toEqual([
      'cat',
      'whoami',
      'sh -c touch x; echo `id`',
      'touch x',
      'echo ', // its argument is only known when it runs
      'id',
    ]);
  });

  it('marks words only known at run time, and says when a line cannot be told', () => {
    expect(analyzeShell('git push $REMOTE').commands[0]?.words).toEqual(['git', 'push', null]);
    expect(analyzeShell('$CMD x').unknown).toBe('a command name is only known when it runs');
    expect(analyzeShell('bash -c "$X"').unknown).toBe('"bash -c" runs code only known when it runs');
    expect(analyzeShell('rm x )').unknown).toMatch(/^it does not parse/);
    expect(analyzeShell('ls > out.txt').commands[0]).toEqual({ words: ['ls'], writes: true });
    expect(analyzeShell('ls 2>/dev/null >&2').commands[0]?.writes).toBe(false);
  });
});
