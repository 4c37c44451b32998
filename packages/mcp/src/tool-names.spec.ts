import { checkPrefix, defaultPrefix, modelToolName } from './tool-names.js';
import { matchesPattern } from './name-pattern.js';

describe('MCP tool names for providers', () => {
  it('prefixes and replaces characters providers refuse', () => {
    expect(modelToolName('fs', 'read_file')).toBe('fs_read_file');
    expect(modelToolName(undefined, 'files/read file')).toBe('files_read_file');
    expect(modelToolName('docs', 'search.v2')).toBe('docs_search_v2');
  });

  it('shortens names over 64 characters with a hash, so two long names stay distinct', () => {
    const a = modelToolName('server', `${'x'.repeat(70)}_a`);
    const b = modelToolName('server', `${'x'.repeat(70)}_b`);
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[a-zA-Z0-9_-]{64}$/);
  });

  it('derives a default prefix from the server name and refuses an explicit bad one', () => {
    expect(defaultPrefix('my server.io')).toBe('my_server_io');
    expect(() => checkPrefix('bad prefix', 'files')).toThrow(
      /Invalid prefix "bad prefix" for MCP server "files"/,
    );
    expect(() => checkPrefix('ok-prefix_1', 'files')).not.toThrow();
  });

  it('matches approval patterns with * only', () => {
    expect(matchesPattern('write_file', 'write_*')).toBe(true);
    expect(matchesPattern('read_file', 'write_*')).toBe(false);
    expect(matchesPattern('a.b', 'a.b')).toBe(true);
    expect(matchesPattern('axb', 'a.b')).toBe(false);
  });
});
