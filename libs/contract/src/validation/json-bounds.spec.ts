import { JSON_LIMITS, jsonBoundsProblem } from './json-bounds';

const nested = (depth: number): unknown => {
  let value: unknown = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};

describe('jsonBoundsProblem', () => {
  it('accepts a body 32 levels deep and refuses 33', () => {
    expect(jsonBoundsProblem(nested(JSON_LIMITS.maxDepth))).toBeNull();
    expect(jsonBoundsProblem(nested(JSON_LIMITS.maxDepth + 1))).toBe('is nested deeper than 32 levels');
  });

  it('walks 250 000 levels (what 256 KiB allows) without overflowing the stack', () => {
    expect(jsonBoundsProblem(nested(250_000))).toBe('is nested deeper than 32 levels');
  });

  it('counts arrays and objects alike, and refuses more than 20 000 values', () => {
    expect(jsonBoundsProblem({ a: Array.from({ length: 19_998 }, () => 0) })).toBeNull();
    expect(jsonBoundsProblem({ a: Array.from({ length: 20_000 }, () => 0) })).toBe(
      'holds more than 20000 values',
    );
  });
});
