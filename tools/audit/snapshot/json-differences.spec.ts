import { jsonDifferences } from './json-differences';

describe('jsonDifferences', () => {
  it('finds none between equal JSON values, whatever the key order or an undefined key', () => {
    expect(
      jsonDifferences({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1, d: undefined }),
    ).toEqual([]);
  });

  it('names each leaf that differs by its path, with both values', () => {
    const folded = {
      status: 'settled',
      perChainStatus: [{ legs: [{ settledAmount: '10' }, { settledAmount: '5' }] }],
    };
    const served = {
      status: 'settled',
      perChainStatus: [{ legs: [{ settledAmount: '10' }, { settledAmount: '6' }] }],
    };
    expect(jsonDifferences(folded, served)).toEqual([
      { path: 'perChainStatus[0].legs[1].settledAmount', expected: '5', actual: '6' },
    ]);
  });

  it('reports a key or an element only one side has, and a whole value of another kind', () => {
    expect(jsonDifferences({ a: 1, list: [1] }, { b: 2, list: [1, 2] })).toEqual([
      { path: 'a', expected: 1, actual: undefined },
      { path: 'list[1]', expected: undefined, actual: 2 },
      { path: 'b', expected: undefined, actual: 2 },
    ]);
    expect(jsonDifferences({ a: 1 }, { error: 'attempt_not_found' })).toHaveLength(2);
    expect(jsonDifferences('x', 3)).toEqual([{ path: '(whole value)', expected: 'x', actual: 3 }]);
  });
});
