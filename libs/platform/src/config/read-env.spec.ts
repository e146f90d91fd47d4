import { IsInt, IsNumber, IsString, Max, Min } from 'class-validator';
import { ConfigError } from './config-error';
import { EnvNumber, IsEnvBoolean, readEnv } from './read-env';
import { ServiceEnv } from './service-env.dto';

class SampleEnv {
  @EnvNumber()
  @IsInt()
  @Min(1)
  @Max(100)
  COUNT = 10;

  @EnvNumber()
  @IsNumber()
  RATIO = 0.5;

  @IsEnvBoolean()
  ENABLED = true;

  @IsString()
  NAME = 'svc';
}

/** Inherits the coercions its parent declares. */
class ExtendedEnv extends SampleEnv {
  @EnvNumber()
  @IsInt()
  EXTRA = 1;
}

const read = (environment: NodeJS.ProcessEnv) => readEnv({ sample: SampleEnv }, environment).sample;
const problem = (environment: NodeJS.ProcessEnv) => {
  try {
    read(environment);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('readEnv coercion', () => {
  it('keeps every default when nothing is set, or the variables are empty or blank', () => {
    const defaults = { COUNT: 10, RATIO: 0.5, ENABLED: true, NAME: 'svc' };
    expect({ ...read({}) }).toEqual(defaults);
    expect({ ...read({ COUNT: '', RATIO: '   ', ENABLED: '', NAME: ' ' }) }).toEqual(defaults);
  });

  it('reads numbers with Number(), trimmed', () => {
    expect(read({ COUNT: ' 42 ', RATIO: '0.25' })).toMatchObject({ COUNT: 42, RATIO: 0.25 });
    expect(read({ COUNT: '1e1', RATIO: '-3' })).toMatchObject({ COUNT: 10, RATIO: -3 });
  });

  // NaN and Infinity fail @Max first (validation stops at the first error, the last decorator listed): the message
  // class-transformer's @Type(() => Number) gave too.
  it.each([
    ['12abc', 'COUNT: COUNT must not be greater than 100'],
    ['12.5', 'COUNT: COUNT must be an integer number'],
    ['Infinity', 'COUNT: COUNT must not be greater than 100'],
    ['0', 'COUNT: COUNT must not be less than 1'],
    ['101', 'COUNT: COUNT must not be greater than 100'],
  ])('refuses COUNT=%j with the validator’s message, never the value', (value, message) => {
    expect(problem({ COUNT: value })).toBe(`invalid environment:\n  ${message}`);
  });

  it('refuses a ratio that is not a number', () => {
    expect(problem({ RATIO: 'half' })).toBe(
      'invalid environment:\n  RATIO: RATIO must be a number conforming to the specified constraints',
    );
  });

  it('reads exactly true and false as booleans, and refuses anything else', () => {
    expect(read({ ENABLED: 'false' }).ENABLED).toBe(false);
    expect(read({ ENABLED: ' true ' }).ENABLED).toBe(true);
    for (const value of ['0', '1', 'yes', 'TRUE', 'False'])
      expect(problem({ ENABLED: value })).toBe('invalid environment:\n  ENABLED: must be true or false');
  });

  it('keeps strings as written and ignores variables the DTO does not declare', () => {
    const sample = read({ NAME: '123', PATH: '/usr/bin', constructor: 'x' });
    expect(sample.NAME).toBe('123');
    expect(sample).not.toHaveProperty('PATH');
    expect(sample).toBeInstanceOf(SampleEnv);
  });

  it("applies a parent DTO's coercions to a subclass", () => {
    expect(readEnv({ env: ExtendedEnv }, { COUNT: '7', EXTRA: '8', ENABLED: 'false' }).env).toMatchObject({
      COUNT: 7,
      EXTRA: 8,
      ENABLED: false,
    });
  });

  it('lists every problem of every part together (ServiceEnv: PORT, OPS_ON_API_PORT)', () => {
    expect(() =>
      readEnv(
        { sample: SampleEnv, service: ServiceEnv },
        { COUNT: 'x', PORT: '80a', OPS_ON_API_PORT: 'yes' },
      ),
    ).toThrow(
      'invalid environment:\n  COUNT: COUNT must not be greater than 100\n  PORT: PORT must not be greater than 65535\n' +
        '  OPS_ON_API_PORT: must be true or false',
    );
  });
});
