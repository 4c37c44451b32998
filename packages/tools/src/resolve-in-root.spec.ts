import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { isInside, resolveInRoot } from './resolve-in-root.js';
import { InvalidPathError, PathOutsideRootError } from './tool-errors.js';
import { tempRoot, type TempRoot } from './test-helpers.test.js';

describe('resolveInRoot', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
  });
  afterEach(() => t.cleanup());

  it('resolves a relative path inside the root', async () => {
    await t.put('src/a.ts', 'x');
    const r = await resolveInRoot(t.root, 'src/a.ts');
    expect(r).toEqual({
      absolute: path.join(t.root, 'src/a.ts'),
      relative: 'src/a.ts',
      root: t.root,
      exists: true,
    });
  });

  it('resolves paths that do not exist yet, and the root itself as "."', async () => {
    expect(await resolveInRoot(t.root, 'new/dir/file.txt')).toMatchObject({
      relative: 'new/dir/file.txt',
      exists: false,
    });
    expect(await resolveInRoot(t.root, '.')).toMatchObject({ relative: '.', exists: true });
    expect(await resolveInRoot(t.root, '')).toMatchObject({ relative: '.', exists: true });
  });

  it('allows absolute paths inside the root and `..` that stays inside', async () => {
    await t.put('a/b.txt', 'x');
    expect((await resolveInRoot(t.root, path.join(t.root, 'a/b.txt'))).relative).toBe('a/b.txt');
    expect((await resolveInRoot(t.root, 'a/../a/b.txt')).relative).toBe('a/b.txt');
    expect((await resolveInRoot(t.root, '..foo')).relative).toBe('..foo');
  });

  it.each(['../x', 'a/../../x', '/etc/passwd', '..', '../root-sibling/file'])('refuses %s', async (p) => {
    const error = await resolveInRoot(t.root, p).catch((e: unknown) => e);
    expect(PathOutsideRootError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('is outside the root folder');
  });

  it('refuses a NUL byte', async () => {
    const error = await resolveInRoot(t.root, 'a\0b').catch((e: unknown) => e);
    expect(InvalidPathError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('NUL byte');
  });

  it('refuses a symlink to a file outside, and a symlinked folder pointing out', async () => {
    await symlink(t.secret, path.join(t.root, 'link.txt'));
    await symlink(t.outside, path.join(t.root, 'out'));
    for (const p of ['link.txt', 'out', 'out/secret.txt', 'out/new/file.txt']) {
      await expect(resolveInRoot(t.root, p)).rejects.toThrow(/outside the root folder .*symlink/);
    }
  });

  it('refuses a dangling symlink whose target would be created outside', async () => {
    await symlink(path.join(t.outside, 'created.txt'), path.join(t.root, 'dangling'));
    await expect(resolveInRoot(t.root, 'dangling')).rejects.toThrow(/outside the root/);
  });

  it('follows symlinks that stay inside, reporting the real path', async () => {
    await t.put('real/file.txt', 'x');
    await symlink(path.join(t.root, 'real'), path.join(t.root, 'alias'));
    await symlink('real/missing.txt', path.join(t.root, 'dangling-inside'));
    expect((await resolveInRoot(t.root, 'alias/file.txt')).relative).toBe('real/file.txt');
    expect(await resolveInRoot(t.root, 'dangling-inside')).toMatchObject({
      relative: 'real/missing.txt',
      exists: false,
    });
  });

  it('accepts the root given through a symlink', async () => {
    const aliasRoot = path.join(t.outside, 'root-alias');
    await symlink(t.root, aliasRoot);
    await mkdir(path.join(t.root, 'sub'));
    expect((await resolveInRoot(aliasRoot, 'sub')).relative).toBe('sub');
    expect((await resolveInRoot(aliasRoot, path.join(t.root, 'sub'))).relative).toBe('sub');
  });

  it('reports a symlink loop', async () => {
    await symlink('loop-b', path.join(t.root, 'loop-a'));
    await symlink('loop-a', path.join(t.root, 'loop-b'));
    await expect(resolveInRoot(t.root, 'loop-a')).rejects.toThrow(/symlink loop/);
  });

  it('says so when the root does not exist', async () => {
    await expect(resolveInRoot(path.join(t.root, 'missing'), 'a')).rejects.toThrow(
      /root folder .* does not exist/,
    );
  });
});

describe('isInside', () => {
  it('compares whole path segments', () => {
    expect(isInside('/a', '/a')).toBe(true);
    expect(isInside('/a', '/a/b')).toBe(true);
    expect(isInside('/a', '/ab')).toBe(false);
    expect(isInside('/a', '/')).toBe(false);
    expect(isInside('/a', '/a/..b')).toBe(true);
  });
});
