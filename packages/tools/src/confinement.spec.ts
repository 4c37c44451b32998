import { readFile, readdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { createReadState } from './read-state.js';
import { fileTools } from './tool-sets.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

// Every file tool is called with each escape attempt; none may touch anything outside.
type Call = (tools: ReturnType<typeof fileTools>, p: string) => unknown;
const calls: [string, Call][] = [
  ['read', (tools, p) => execute(tools.read, { path: p }, toolContext())],
  ['write', (tools, p) => execute(tools.write, { path: p, content: 'pwned\n' }, toolContext())],
  ['edit', (tools, p) => execute(tools.edit, { path: p, oldText: 'top', newText: 'pwned' }, toolContext())],
  ['list', (tools, p) => execute(tools.list, { path: p }, toolContext())],
  ['grep', (tools, p) => execute(tools.grep, { pattern: 'secret', path: p }, toolContext())],
];

describe.each(calls)('%s confinement', (_name, call) => {
  let t: TempRoot;
  let tools: ReturnType<typeof fileTools>;
  beforeEach(async () => {
    t = await tempRoot();
    tools = fileTools({ root: t.root, readState: createReadState() });
    await symlink(t.secret, path.join(t.root, 'secret-link.txt'));
    await symlink(t.outside, path.join(t.root, 'outside-link'));
    await symlink(path.join(t.outside, 'new.txt'), path.join(t.root, 'dangling-link'));
  });
  afterEach(async () => {
    // Nothing outside was changed or created.
    expect(await readFile(t.secret, 'utf8')).toBe('top secret\n');
    expect(await readdir(t.outside)).toEqual(['secret.txt']);
    await t.cleanup();
  });

  const outsideAttempts = (t: TempRoot) => [
    '../outside/secret.txt',
    'a/../../outside/secret.txt',
    '/etc/passwd',
    t.secret,
    'secret-link.txt',
    'outside-link',
    'outside-link/secret.txt',
    'outside-link/sub/new.txt',
    'dangling-link',
  ];

  it('refuses paths outside the root: .., absolute, symlinks to a file or a folder outside', async () => {
    for (const p of outsideAttempts(t)) {
      await expect(Promise.resolve(call(tools, p))).rejects.toThrow(/is outside the root folder/);
    }
  });

  it('refuses a NUL byte', async () => {
    await expect(Promise.resolve(call(tools, 'a\0../../outside/secret.txt'))).rejects.toThrow(/NUL byte/);
  });
});

describe('confinement of a write or edit after reading through the root', () => {
  it('an edit cannot be aimed outside even after a read of an inside file with the same name', async () => {
    const t = await tempRoot();
    try {
      const tools = fileTools({ root: t.root });
      await t.put('secret.txt', 'top inside\n');
      await execute(tools.read, { path: 'secret.txt' }, toolContext());
      await expect(
        execute(tools.edit, { path: '../outside/secret.txt', oldText: 'top', newText: 'x' }, toolContext()),
      ).rejects.toThrow(/outside the root/);
      expect(await readFile(t.secret, 'utf8')).toBe('top secret\n');
    } finally {
      await t.cleanup();
    }
  });
});
