import { TestScheduler } from 'rxjs/testing';
import { createSpinner, noSpinner } from './spinner.js';

describe('createSpinner', () => {
  it('redraws a frame every interval on the scheduler and erases its line when stopped', () => {
    const scheduler = new TestScheduler((a, b) => expect(a).toEqual(b));
    const writes: string[] = [];
    const spinner = createSpinner({
      write: (s) => writes.push(s),
      scheduler,
      intervalMs: 100,
      frames: ['a', 'b'],
    });

    let spinningMeanwhile = false;
    scheduler.run(() => {
      spinner.start('thinking');
      spinningMeanwhile = spinner.spinning;
      scheduler.schedule(() => spinner.start('running read'), 250); // a new label, same timer
      scheduler.schedule(() => spinner.stop(), 350);
    });

    expect(spinningMeanwhile).toBe(true);
    expect(writes).toEqual([
      '\r\x1b[2Ka thinking…',
      '\r\x1b[2Kb thinking…', // 100 ms
      '\r\x1b[2Ka thinking…', // 200 ms
      '\r\x1b[2Ka running read…',
      '\r\x1b[2Kb running read…', // 300 ms
      '\r\x1b[2K', // 350 ms, and nothing after
    ]);
    expect(spinner.spinning).toBe(false);
  });

  it('stop() when not spinning writes nothing', () => {
    const writes: string[] = [];
    createSpinner({ write: (s) => writes.push(s) }).stop();
    expect(writes).toEqual([]);
  });
});

describe('noSpinner', () => {
  it('never spins', () => {
    const spinner = noSpinner();
    spinner.start('thinking');
    expect(spinner.spinning).toBe(false);
  });
});
