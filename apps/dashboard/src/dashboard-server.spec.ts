import { request } from 'node:http';
import { startDashboard, type Dashboard } from './dashboard-server.js';

let dashboard: Dashboard | undefined;
afterEach(() => dashboard?.close());

/** A GET to 127.0.0.1:port with the given headers; resolves with the status and headers. */
function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status?: number; cookie?: string[] }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve({ status: res.statusCode, cookie: res.headers['set-cookie'] });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startDashboard on a non-loopback host', () => {
  it('prints a URL with a random token and refuses every request without it', async () => {
    dashboard = await startDashboard({ host: '0.0.0.0', port: 0 });
    const url = new URL(dashboard.url);
    const token = url.searchParams.get('token') ?? '';
    expect(token).toMatch(/^[\w-]{43}$/);
    expect(dashboard.token).toBe(token);
    const port = Number(url.port);
    const host = { host: `dashboard.lan:${port}` };
    for (const path of ['/', '/page.js', '/events', '/runs', '/runs?token=wrong']) {
      expect((await get(port, path, host)).status).toBe(401);
    }
    expect((await get(port, '/runs', { ...host, 'x-dashboard-token': 'wrong' })).status).toBe(401);
  });

  it('accepts the token in the page URL, then as the cookie or the header', async () => {
    dashboard = await startDashboard({ host: '0.0.0.0', port: 0 });
    const port = Number(new URL(dashboard.url).port);
    const token = dashboard.token ?? '';
    const host = { host: `dashboard.lan:${port}` };
    const page = await get(port, `/?token=${token}`, host);
    expect(page.status).toBe(200);
    const cookie = (page.cookie?.[0] ?? '').split(';')[0] ?? '';
    expect(page.cookie?.[0]).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await get(port, '/runs', { ...host, cookie })).status).toBe(200);
    expect((await get(port, '/page.js', { ...host, cookie })).status).toBe(200);
    expect((await get(port, '/runs', { ...host, 'x-dashboard-token': token })).status).toBe(200);
  });

  it('needs no token on loopback', async () => {
    dashboard = await startDashboard({ port: 0 });
    expect(dashboard.token).toBeUndefined();
    expect(dashboard.url).not.toContain('token');
    const port = Number(new URL(dashboard.url).port);
    expect((await get(port, '/runs', { host: `127.0.0.1:${port}` })).status).toBe(200);
  });
});
