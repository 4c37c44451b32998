import { Subject, type Observable } from 'rxjs';
import type { UserMessage } from '../messages/types.js';

/**
 * A message given as text or as a user message.
 *
 * @example
 * const inputs: UserInput[] = ['Also check the tests', userMessage([{ type: 'text', text: 'And the docs' }])];
 */
export type UserInput = string | UserMessage;

/**
 * Messages waiting to be delivered into a run (steering, follow-ups). A queue can outlive a
 * run: what a run does not take stays for the next (the `Agent` keeps its queues this way).
 *
 * @example
 * const queue = new MessageQueue();
 * queue.push('Also check the tests folder');
 * runAgent({ model, prompt, steering$: queue });
 */
export class MessageQueue {
  private items: UserInput[] = [];
  private readonly pushed = new Subject<void>();

  /** Emits each time a message is pushed. */
  readonly pushed$: Observable<void> = this.pushed.asObservable();

  /** Adds a message at the end of the queue. */
  push(message: UserInput): void {
    this.items.push(message);
    this.pushed.next();
  }

  /** Takes every queued message, oldest first. */
  drain(): UserInput[] {
    const taken = this.items;
    this.items = [];
    return taken;
  }

  /** The queued messages, oldest first, left in the queue. */
  peek(): readonly UserInput[] {
    return this.items.slice();
  }

  /** Removes every queued message without delivering it. */
  clear(): void {
    this.items = [];
  }

  /** How many messages are waiting. */
  get size(): number {
    return this.items.length;
  }
}

/**
 * A text or user message as a `UserMessage` stamped with `timestamp` when it has none.
 *
 * @example
 * toUserMessage('hi', scheduler.now()); // { role: 'user', content: 'hi', timestamp: … }
 */
export function toUserMessage(input: UserInput, timestamp: number): UserMessage {
  if (typeof input === 'string') return { role: 'user', content: input, timestamp };
  return input;
}
