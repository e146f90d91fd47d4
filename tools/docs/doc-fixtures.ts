import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a fixture gives a block: where it runs and what it adds to the environment. */
export interface FixtureSetup {
  cwd?: string;
  env?: Record<string, string>;
  /**
   * Addresses the page names that the suite serves elsewhere, rewritten in the block's commands: only ports, as for
   * `npm start` (the example backend's documented `localhost:4000` is the suite's free port for it).
   */
  rewrite?: Record<string, string>;
}

/** The repository and a scratch folder the suite removes at the end. */
export interface FixtureContext {
  root: string;
  scratch: string;
  /** The port the suite's example backend listens on (examples/partner-backend, started beside npm start). */
  exampleBackendPort: number;
}

/**
 * Set-ups a block names with `with=<fixture>` (tools/docs/doc-commands.ts): what a reader has at hand at that point of
 * the page, which the block itself does not create.
 */
export const FIXTURES: Record<string, (context: FixtureContext) => FixtureSetup> = {
  /** docs/partners/signing.md's openssl check: $BODY, $STRING and $SECRET hold the worked example of that page. */
  'signing-example': ({ root }) => {
    const page = readFileSync(join(root, 'docs', 'partners', 'signing.md'), 'utf8');
    const read = (pattern: RegExp): string => {
      const value = pattern.exec(page)?.[1];
      if (value === undefined) throw new Error(`docs/partners/signing.md no longer matches ${pattern}`);
      return value;
    };
    return {
      env: {
        SECRET: read(/^secret:\s+(\S+)$/m),
        BODY: read(/^body:\s+(\{.*\})$/m),
        // The worked block, not the template above it (whose lines hold `<placeholders>`).
        STRING: read(/```text\n(SERVICE-EXTERNAL-REQUEST\n[^`<]*?)\n```/),
      },
    };
  },

  /**
   * The SDK README's install: a partner's own project (outside this repository), holding the tarball that
   * `npm pack ./dist/partner-client` wrote into the repository (docs/partners/tools.md), moved there. npm stays
   * offline (the package has no dependencies) and quiet about audits and funding.
   */
  'sdk-consumer': ({ root, scratch }) => {
    const project = join(scratch, 'sdk-consumer');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'package.json'), '{ "name": "consumer", "private": true }\n');
    for (const file of readdirSync(root).filter((f) => /^intent-service-partner-client-.*\.tgz$/.test(f)))
      renameSync(join(root, file), join(project, file));
    return {
      cwd: project,
      env: { npm_config_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
    };
  },

  /**
   * examples/partner-backend/README.md's curl calls: the backend runs (started by the suite as its README's first
   * block says, beside npm start, as the partner whose callback is this backend) on a free port in place of 4000.
   */
  'example-backend': ({ exampleBackendPort }) => ({
    rewrite: {
      'localhost:4000': `localhost:${exampleBackendPort}`,
      '127.0.0.1:4000': `127.0.0.1:${exampleBackendPort}`,
    },
  }),
};
