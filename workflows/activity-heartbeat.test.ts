import { MockActivityEnvironment } from '@temporalio/testing';
import { heartbeatAtMostEverySecond } from './activity-heartbeat';

describe('heartbeatAtMostEverySecond', () => {
  afterEach(() => jest.useRealTimers());

  it('passes the first heartbeat of an activity and at most one a second after it', async () => {
    jest.useFakeTimers({ now: new Date('2026-11-27T12:00:00Z'), doNotFake: ['nextTick', 'setImmediate'] });
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (details: unknown) => beats.push(details));
    await env.run(() => {
      heartbeatAtMostEverySecond(1);
      heartbeatAtMostEverySecond(2);
      jest.advanceTimersByTime(999);
      heartbeatAtMostEverySecond(3);
      jest.advanceTimersByTime(1);
      heartbeatAtMostEverySecond(4);
      heartbeatAtMostEverySecond(5);
      jest.advanceTimersByTime(2_500);
      heartbeatAtMostEverySecond(6);
      return Promise.resolve();
    });
    expect(beats).toEqual([1, 4, 6]);
  });

  it('counts each activity on its own: a new attempt beats at once', async () => {
    const beats: unknown[] = [];
    for (const attempt of [1, 2]) {
      const env = new MockActivityEnvironment({ attempt });
      env.on('heartbeat', (details: unknown) => beats.push(details));
      await env.run(() => Promise.resolve(heartbeatAtMostEverySecond(`attempt ${attempt}`)));
    }
    expect(beats).toEqual(['attempt 1', 'attempt 2']);
  });

  it('throws outside an activity, as the SDK heartbeat does', () => {
    expect(() => heartbeatAtMostEverySecond()).toThrow();
  });
});
