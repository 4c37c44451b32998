import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname } from 'node:path';
import { McpConfigError } from '../mcp-errors.js';
import type { McpStoredAuth, McpTokenStore } from './token-store.js';

type Contents = Record<string, McpStoredAuth>;

async function read(path: string): Promise<Contents> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      // Keys are server URLs: kept as own data properties, never as a prototype.
      return Object.assign(Object.create(null) as Contents, parsed);
    }
  } catch {
    // fall through: a file that is not ours is not overwritten silently
  }
  throw new McpConfigError(
    `The MCP token store ${path} is not a JSON object of stored tokens: move it away or give another path.`,
  );
}

/**
 * A token store in one JSON file, readable by its owner only (mode 0600, the directory made
 * 0700 when created), written atomically (a temporary file renamed over it). Writes of one
 * store are made in order; two processes writing at once may lose one update (the next
 * sign-in or refresh writes it again). A file that is not a JSON object is refused with an
 * `McpConfigError`, never overwritten.
 *
 * @param path Where the file is.
 * @return The store.
 *
 * @example
 * const store = fileTokenStore(join(homedir(), '.my-cli', 'mcp-tokens.json'));
 */
export function fileTokenStore(path: string): McpTokenStore {
  let writing: Promise<void> = Promise.resolve();
  return {
    async load(key) {
      await writing;
      const contents = await read(path);
      return Object.hasOwn(contents, key) ? contents[key] : undefined;
    },
    save(key, value) {
      const write = async () => {
        const contents = await read(path);
        contents[key] = value;
        await mkdir(dirname(path), { recursive: true, mode: 0o700 });
        const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
        await writeFile(temporary, JSON.stringify(contents, null, 2), { mode: 0o600 });
        await chmod(temporary, 0o600);
        await rename(temporary, path);
      };
      const done = writing.then(write);
      writing = done.catch(() => undefined);
      return done;
    },
  };
}
