import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KAFKA_CONTAINER_IMAGE } from '@svc/testing';

const root = join(__dirname, '..', '..');

/** Every file that declares which Kafka release runs, and how to read the version out of it. */
const PLACES: { file: string; pattern: RegExp }[] = [
  { file: 'tools/kafka-broker/pom.xml', pattern: /<kafka\.version>([^<]+)<\/kafka\.version>/g },
  { file: 'tools/kafka-broker/pom.xml', pattern: /-Dkafka\.version=(\S+)/g },
  { file: 'libs/testing/src/kafka/kafka-broker-install.ts', pattern: /KAFKA_BROKER_VERSION = '([^']+)'/g },
  { file: 'docker/compose.yaml', pattern: /image: \S*kafka\S*:(\S+)/g },
  { file: 'docker/k8s/kafka-topics-job.yaml', pattern: /image: \S*kafka\S*:(\S+)/g },
  { file: 'docker/k8s-overlays/dev/kustomization.yaml', pattern: /name: apache\/kafka\s+newTag: (\S+)/g },
  { file: 'docker/k8s-overlays/prod/kustomization.yaml', pattern: /name: apache\/kafka\s+newTag: (\S+)/g },
  { file: 'docker/README.md', pattern: /`apache\/kafka:([^`]+)`/g },
  { file: 'docker/README.md', pattern: /real Apache Kafka broker \(([\d.]+)/g },
  { file: 'docs/operations/checks.md', pattern: /`org\.apache\.kafka:kafka_2\.13` \(([\d.]+)/g },
];

function declaredVersions(dir: string): { place: string; version: string }[] {
  return PLACES.flatMap(({ file, pattern }) => {
    const found = [...readFileSync(join(dir, file), 'utf8').matchAll(pattern)].map((m) => ({
      place: file,
      version: m[1],
    }));
    return found.length > 0 ? found : [{ place: file, version: 'none found' }];
  });
}

describe('one Kafka release everywhere: the test jars, compose, the k8s job and the testcontainers helper', () => {
  it('every place that declares a Kafka version declares the same one, a 4.x', () => {
    const declared = declaredVersions(root);
    const version = declared[0].version;
    expect(version).toMatch(/^4\.\d+\.\d+$/);
    expect(declared.filter((d) => d.version !== version)).toEqual([]);
    expect(declared.length).toBeGreaterThanOrEqual(PLACES.length);
    expect(KAFKA_CONTAINER_IMAGE).toBe(`apache/kafka:${version}`);
  });

  it('a place left behind is named (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kafka-version-'));
    try {
      for (const { file } of PLACES) cpSync(join(root, file), join(dir, file), { recursive: true });
      const job = join(dir, 'docker/k8s/kafka-topics-job.yaml');
      writeFileSync(job, readFileSync(job, 'utf8').replace(/apache\/kafka:\S+/, 'apache/kafka:3.9.0'));
      const declared = declaredVersions(dir);
      expect(declared.filter((d) => d.version !== declared[0].version)).toEqual([
        { place: 'docker/k8s/kafka-topics-job.yaml', version: '3.9.0' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
