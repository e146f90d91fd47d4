import { indexPath, propertyPath, topLevelField } from './field-path';

describe('field paths', () => {
  it.each([
    ['', 'walletAddress', 'walletAddress'],
    ['sources[2]', 'amount', 'sources[2].amount'],
    ['', 'a.b', '["a.b"]'],
    ['walletContext', 'x y', 'walletContext["x y"]'],
  ])('joins %p and %p as %p', (parent, key, expected) => {
    expect(propertyPath(parent, key)).toBe(expected);
  });

  it('indexes arrays', () => {
    expect(indexPath('targets', 0)).toBe('targets[0]');
  });

  it.each([
    ['sources[2].amount', 'sources'],
    ['target.targetToken.decimals', 'target'],
    ['feeBps', 'feeBps'],
    ['', ''],
  ])('finds the top-level field of %p', (path, expected) => {
    expect(topLevelField(path)).toBe(expected);
  });
});
