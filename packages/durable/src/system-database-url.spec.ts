import { systemDatabaseUrl } from './system-database-url.js';

describe('systemDatabaseUrl', () => {
  it('sets the idle-in-transaction timeout in the URL, keeping other options', () => {
    const url = new URL(systemDatabaseUrl('postgres://app:pw@127.0.0.1:5432/agents?sslmode=disable'));
    expect(url.searchParams.get('options')).toBe('-c idle_in_transaction_session_timeout=60000');
    expect(url.searchParams.get('sslmode')).toBe('disable');
    expect([url.username, url.password, url.pathname]).toEqual(['app', 'pw', '/agents']);
    const more = new URL(systemDatabaseUrl('postgres://127.0.0.1/agents?options=-c%20search_path%3Dx'));
    expect(more.searchParams.get('options')).toBe(
      '-c search_path=x -c idle_in_transaction_session_timeout=60000',
    );
  });

  it('leaves a URL that sets the timeout, or is no URL, as it is', () => {
    const own = 'postgres://127.0.0.1/agents?options=-c%20idle_in_transaction_session_timeout%3D5000';
    expect(systemDatabaseUrl(own)).toBe(own);
    expect(systemDatabaseUrl('not a url')).toBe('not a url');
  });
});
