import { Observable } from 'rxjs';
import { StateCell } from './state-cell.js';

const watch = <S>(cell: StateCell<S>) => new Observable<S>((subscriber) => cell.subscribe(subscriber));

describe('StateCell', () => {
  it('gives a subscriber the current value, then each new one', () => {
    const cell = new StateCell(1);
    const seen: number[] = [];
    watch(cell).subscribe((v) => seen.push(v));
    cell.next(2);
    cell.next(3);
    expect(seen).toEqual([1, 2, 3]);
    expect(cell.value).toBe(3);
  });

  it('stops delivering to a subscriber that left, and keeps the others', () => {
    const cell = new StateCell('a');
    const first: string[] = [];
    const second: string[] = [];
    const sub = watch(cell).subscribe((v) => first.push(v));
    watch(cell).subscribe((v) => second.push(v));
    sub.unsubscribe();
    cell.next('b');
    expect(first).toEqual(['a']);
    expect(second).toEqual(['a', 'b']);
  });

  it('delivers a value given during a delivery to everyone at once, as a BehaviorSubject does', () => {
    const cell = new StateCell(0);
    const log: string[] = [];
    watch(cell).subscribe((v) => {
      log.push(`A${v}`);
      if (v === 1) cell.next(2);
    });
    watch(cell).subscribe((v) => log.push(`B${v}`));
    cell.next(1);
    expect(log).toEqual(['A0', 'B0', 'A1', 'A2', 'B2', 'B1']);
  });

  it('completes its subscribers; a later one gets only the completion, and .value still moves', () => {
    const cell = new StateCell(1);
    const events: string[] = [];
    watch(cell).subscribe({ next: (v) => events.push(`next ${v}`), complete: () => events.push('complete') });
    cell.complete();
    cell.next(5);
    watch(cell).subscribe({
      next: (v) => events.push(`late ${v}`),
      complete: () => events.push('late complete'),
    });
    expect(events).toEqual(['next 1', 'complete', 'late complete']);
    expect(cell.value).toBe(5);
    expect(cell.isStopped).toBe(true);
  });
});
