import { type AttemptSnapshot } from '@svc/contract';
import { AttemptStatusCache } from './attempt-status.cache';

const body = (label: string) => ({ attemptId: label }) as unknown as AttemptSnapshot;
const entry = (revision: number, label = `r${revision}`) => ({
  revision,
  partnerId: 'p1',
  body: body(label),
});

describe('AttemptStatusCache', () => {
  it('serves an entry only at the revision it was folded at', () => {
    const cache = new AttemptStatusCache(4);
    cache.remember('a', entry(2));
    expect(cache.at('a', 2)?.body).toEqual(body('r2'));
    expect(cache.at('a', 3)).toBeUndefined();
    expect(cache.at('a', 1)).toBeUndefined();
    expect(cache.at('b', 2)).toBeUndefined();
  });

  it('keeps the newer of two revisions whatever order they arrive in', () => {
    const cache = new AttemptStatusCache(4);
    cache.remember('a', entry(5));
    cache.remember('a', entry(4));
    expect(cache.at('a', 5)).toBeDefined();
    expect(cache.at('a', 4)).toBeUndefined();
    cache.remember('a', entry(6));
    expect(cache.at('a', 6)).toBeDefined();
    expect(cache.at('a', 5)).toBeUndefined();
  });

  it('holds at most its capacity, evicting the least recently used', () => {
    const cache = new AttemptStatusCache(3);
    for (const id of ['a', 'b', 'c']) cache.remember(id, entry(0, id));
    expect(cache.at('a', 0)).toBeDefined(); // a is now the most recent: b is the oldest
    cache.remember('d', entry(0, 'd'));
    expect(cache.size).toBe(3);
    expect(cache.at('b', 0)).toBeUndefined();
    expect(['a', 'c', 'd'].map((id) => cache.at(id, 0)?.body)).toEqual(['a', 'c', 'd'].map(body));
    for (let i = 0; i < 100; i++) cache.remember(`x${i}`, entry(0));
    expect(cache.size).toBe(3);
  });

  it('refuses a capacity below one', () => {
    expect(() => new AttemptStatusCache(0)).toThrow(RangeError);
  });
});
