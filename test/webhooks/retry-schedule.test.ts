import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  createRetrySchedule,
  DEFAULT_RETRY_DELAYS_MS,
  maxAttempts,
  nextRetryDelayMs,
  parseRetryAfter,
  parseRetryDelays,
} from '../../src/webhooks/retry-schedule.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const middle = () => 0.5;
const lowest = () => 0;
const highest = () => 0.999999;

describe('default retry schedule', () => {
  const schedule = createRetrySchedule();

  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after 8 attempts', () => {
    const expected = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
    assert.deepEqual(
      expected.map((_, index) => nextRetryDelayMs(schedule, index + 1, { random: middle })),
      expected,
    );
    assert.equal(nextRetryDelayMs(schedule, 8, { random: middle }), null);
    assert.equal(nextRetryDelayMs(schedule, 9, { random: middle }), null);
    assert.equal(maxAttempts(schedule), 8);
  });

  it('adds at most ±10 % jitter to every step', () => {
    DEFAULT_RETRY_DELAYS_MS.forEach((base, index) => {
      const low = nextRetryDelayMs(schedule, index + 1, { random: lowest });
      const high = nextRetryDelayMs(schedule, index + 1, { random: highest });
      assert.equal(low, Math.round(base * 0.9));
      assert.ok(high !== null && high <= Math.round(base * 1.1) && high > Math.round(base * 1.099));
      for (let sample = 0; sample < 50; sample++) {
        const delay = nextRetryDelayMs(schedule, index + 1) ?? -1;
        assert.ok(delay >= base * 0.9 && delay <= base * 1.1, `${delay} within ±10 % of ${base}`);
      }
    });
  });

  it('rejects attempt numbers below 1', () => {
    assert.throws(() => nextRetryDelayMs(schedule, 0), RangeError);
    assert.throws(() => nextRetryDelayMs(schedule, 1.5), RangeError);
  });
});

describe('Retry-After within bounds', () => {
  const schedule = createRetrySchedule();
  const after = (attempt: number, retryAfterSeconds: number) => nextRetryDelayMs(schedule, attempt, { retryAfterSeconds, random: middle });

  it('never retries sooner than the schedule', () => {
    assert.equal(after(1, 0), 5 * SECOND);
    assert.equal(after(2, 10), 5 * MINUTE);
    assert.equal(after(4, 60), 2 * HOUR);
  });

  it('postpones up to 1 h for the short steps', () => {
    assert.equal(after(1, 120), 120 * SECOND);
    assert.equal(after(1, 3600), HOUR);
    assert.equal(after(1, 86_400), HOUR, 'capped');
    assert.equal(after(2, 7200), HOUR, 'capped');
  });

  it('postpones up to twice the step for the long ones', () => {
    assert.equal(after(4, 3 * 3600), 3 * HOUR);
    assert.equal(after(4, 10 * 3600), 4 * HOUR, 'capped at 2 × 2 h');
    assert.equal(after(6, 30 * 3600), 20 * HOUR, 'capped at 2 × 10 h');
  });

  it('still gives up after the last attempt', () => {
    assert.equal(after(8, 60), null);
  });

  it('ignores a negative or non-finite value', () => {
    assert.equal(after(2, -5), 5 * MINUTE);
    assert.equal(after(2, Number.NaN), 5 * MINUTE);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2025-03-01T10:00:00Z');
  it('reads seconds', () => {
    assert.equal(parseRetryAfter('120', now), 120);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
  });
  it('reads HTTP dates relative to now', () => {
    assert.equal(parseRetryAfter('Sat, 01 Mar 2025 10:02:00 GMT', now), 120);
    assert.equal(parseRetryAfter('Saturday, 01-Mar-25 10:01:00 GMT', now), 60);
    assert.equal(parseRetryAfter('Sat, 01 Mar 2025 09:00:00 GMT', now), 0, 'a date in the past means now');
  });
  it('ignores anything else', () => {
    for (const value of [undefined, '', 'soon', '1.5', '-3', '2025-03-01']) assert.equal(parseRetryAfter(value, now), undefined);
  });
});

describe('shortened schedules', () => {
  it('a scale factor shrinks every step and the Retry-After cap', () => {
    const schedule = createRetrySchedule({ scale: 0.0001 });
    assert.deepEqual(schedule.delaysMs, [1, 30, 180, 720, 1800, 3600, 3600]);
    assert.equal(schedule.retryAfterCapMs, 360);
    const total = schedule.delaysMs.reduce((sum, delay) => sum + delay, 0);
    assert.ok(total * 1.1 < 11_000, 'whole schedule in about 10 s');
    assert.equal(nextRetryDelayMs(schedule, 1, { retryAfterSeconds: 3600, random: middle }), 360);
  });

  it('an explicit list replaces the delays, and its length sets the attempts', () => {
    const schedule = createRetrySchedule({ delaysMs: parseRetryDelays('10ms, 20ms,50ms'), jitter: 0 });
    assert.equal(maxAttempts(schedule), 4);
    assert.deepEqual(
      [1, 2, 3, 4].map((attempt) => nextRetryDelayMs(schedule, attempt)),
      [10, 20, 50, null],
    );
  });

  it('an empty list means one attempt only', () => {
    const schedule = createRetrySchedule({ delaysMs: [] });
    assert.equal(maxAttempts(schedule), 1);
    assert.equal(nextRetryDelayMs(schedule, 1), null);
  });

  it('rejects bad settings up front', () => {
    assert.throws(() => createRetrySchedule({ scale: 0 }), RangeError);
    assert.throws(() => createRetrySchedule({ jitter: 1 }), RangeError);
    assert.throws(() => createRetrySchedule({ delaysMs: [5, -1] }), RangeError);
  });
});

describe('parseRetryDelays', () => {
  it('reads the default schedule written out', () => {
    assert.deepEqual(parseRetryDelays('5s,5m,30m,2h,5h,10h,10h'), DEFAULT_RETRY_DELAYS_MS);
  });
  it('takes a bare number as seconds and allows fractions', () => {
    assert.deepEqual(parseRetryDelays('3, 0.5s, 250ms'), [3000, 500, 250]);
  });
  it('names the item it cannot read', () => {
    assert.throws(() => parseRetryDelays('5s,soon'), /"soon"/);
    assert.throws(() => parseRetryDelays(''), RangeError);
  });
});
