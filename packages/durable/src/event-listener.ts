import { Client } from 'pg';
import { EVENTS_CHANNEL } from './schema.js';

/**
 * One LISTEN connection per client for notifications of a channel (by default the event log's)
 * whose payload is a run id; it reconnects after a database restart (listeners poll meanwhile,
 * so nothing is missed).
 */
export class EventListener {
  private readonly handlers = new Map<string, Set<() => void>>();
  private client: Client | undefined;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly channel: string = EVENTS_CHANNEL,
  ) {}

  on(runId: string, handler: () => void): () => void {
    let set = this.handlers.get(runId);
    if (!set) this.handlers.set(runId, (set = new Set()));
    set.add(handler);
    void this.ensure();
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(runId);
    };
  }

  /** Connects again if the connection was lost (a database restart). */
  reconnect(): void {
    if (this.handlers.size > 0) void this.ensure();
  }

  private ensure(): Promise<void> {
    if (this.client || this.connecting || this.closed) return this.connecting ?? Promise.resolve();
    this.connecting = (async () => {
      const client = new Client({ connectionString: this.url });
      client.on('error', () => {
        if (this.client === client) this.client = undefined;
        client.end().catch(() => undefined);
      });
      client.on('notification', (n) => {
        for (const handler of this.handlers.get(n.payload ?? '') ?? []) handler();
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${this.channel}`);
        if (this.closed) await client.end();
        else this.client = client;
      } catch {
        await client.end().catch(() => undefined);
      }
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.connecting;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }
}
