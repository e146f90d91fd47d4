import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { ENV_DTOS, loadAppConfig } from '@svc/composition';
import { envSecrets, envVariables, readEnv } from '@svc/platform';
import { ENV_EXAMPLE, envExampleText, REPO_ROOT } from './env-example-file';

const checkedIn = readFileSync(join(REPO_ROOT, ENV_EXAMPLE), 'utf8');
/** The file with every `# NAME=default` line uncommented, as a reader who wants every default written out would. */
const uncommented = checkedIn.replace(/^# ([A-Z][A-Z0-9_]*=.*)$/gm, '$1');
const declared = Object.values(ENV_DTOS).flatMap((dto) => envVariables(dto));

describe('.env.example', () => {
  it('is what `npm run env:example` writes from the config DTOs now', () => {
    const generated = envExampleText();
    if (checkedIn !== generated) {
      const line = checkedIn.split('\n').findIndex((text, i) => text !== generated.split('\n')[i]);
      throw new Error(
        `${ENV_EXAMPLE} differs from the generator's output from line ${line + 1}: run \`npm run env:example\` and commit it`,
      );
    }
  });

  it('sets nothing as it stands: every variable is commented out', () => {
    expect(parseEnv(checkedIn)).toEqual({});
  });

  it('lists every variable the apps read once, under the heading of the DTO that declares it', () => {
    const names = [...uncommented.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    expect(names).toEqual(declared);
    const sections = checkedIn.split(/^# =+\n# (.*)\n# =+$/m);
    Object.entries(ENV_DTOS).forEach(([, dto], i) => {
      expect(sections[1 + 2 * i]).toContain(`(${dto.name},`);
      expect([...(sections[2 + 2 * i] ?? '').matchAll(/^# ([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1])).toEqual(
        envVariables(dto),
      );
    });
  });

  it('gives no secret a value', () => {
    const secrets = Object.values(ENV_DTOS).flatMap((dto) => envSecrets(dto));
    expect(secrets).toEqual(
      expect.arrayContaining(['RELAY_API_KEY', 'KAFKA_SASL_PASSWORD', 'OTEL_EXPORTER_OTLP_HEADERS']),
    );
    const parsed = parseEnv(uncommented);
    expect(secrets.filter((name) => parsed[name] !== '')).toEqual([]);
  });

  it('uncommented, parses with Node’s env-file parser and validates to exactly the defaults', () => {
    const parsed = parseEnv(uncommented);
    const written = Object.keys(parsed).filter((name) => parsed[name] !== '');
    expect(written.length).toBeGreaterThan(50);
    expect(() => loadAppConfig(parsed)).not.toThrow();
    const asDefaults = readEnv(ENV_DTOS, {});
    const fromFile = readEnv(ENV_DTOS, parsed);
    for (const part of Object.keys(ENV_DTOS) as (keyof typeof ENV_DTOS)[])
      expect({ ...fromFile[part] }).toEqual({ ...asDefaults[part] });
  });
});
