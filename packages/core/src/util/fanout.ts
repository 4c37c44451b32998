import { Subscription, type Subscriber } from 'rxjs';

/**
 * Delivers values to a set of subscribers, like a `Subject` without its per-value cost (RxJS's
 * `Subject.next` makes a closure for every value; this runs once per streamed delta). The
 * list is copy-on-write, so subscribers may join or leave while a value is delivered.
 *
 * @example
 * const out = new Fanout<number>();
 * new Observable<number>((s) => out.add(s)).subscribe(console.log);
 * out.next(1);
 */
export class Fanout<T> {
  private subscribers: readonly Subscriber<T>[] = [];

  /** Adds a subscriber; the returned Subscription removes it. */
  add(subscriber: Subscriber<T>): Subscription {
    this.subscribers = [...this.subscribers, subscriber];
    return new Subscription(() => {
      this.subscribers = this.subscribers.filter((s) => s !== subscriber);
    });
  }

  get size(): number {
    return this.subscribers.length;
  }

  next(value: T): void {
    const list = this.subscribers;
    for (let i = 0; i < list.length; i++) (list[i] as Subscriber<T>).next(value);
  }

  error(error: unknown): void {
    const list = this.subscribers;
    this.subscribers = [];
    for (const s of list) s.error(error);
  }

  complete(): void {
    const list = this.subscribers;
    this.subscribers = [];
    for (const s of list) s.complete();
  }
}
