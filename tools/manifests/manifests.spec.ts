import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEVELOPMENT_ACCOUNTS, loadRuntime } from '@svc/composition';
import { KAFKA_CONTAINER_IMAGE } from '@svc/testing';
import { parseAllDocuments, type ScalarTag, stringify } from 'yaml';

const root = join(__dirname, '..', '..');
const k8s = join(root, 'docker', 'k8s');
const compose = join(root, 'docker', 'compose.yaml');

function validateK8s(dir: string) {
  return spawnSync(process.execPath, [join(__dirname, 'validate-k8s.mjs'), dir], {
    cwd: root,
    encoding: 'utf8',
  });
}

describe('Kubernetes manifests (docker/k8s), against the schemas of kubernetes-models', () => {
  it('are valid', () => {
    const run = validateK8s(k8s);
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/[1-9][0-9]* documents valid, 0 problems/);
  });

  it('a wrong type or a missing required field is caught (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'k8s-'));
    try {
      cpSync(k8s, dir, { recursive: true });
      const gateway = join(dir, 'gateway.yaml');
      writeFileSync(
        gateway,
        readFileSync(gateway, 'utf8').replace(/containerPort: \d+/, 'containerPort: http-port'),
      );
      const run = validateK8s(dir);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/gateway\.yaml#\d+ \(Deployment [^)]*\): .*containerPort must be integer/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("let only the ingress controller reach the gateway, whose X-Forwarded-For it trusts (TRUST_PROXY '1')", () => {
    type Policy = {
      kind: string;
      metadata: { name: string };
      spec: {
        podSelector: { matchLabels?: Record<string, string> };
        ingress?: { from?: unknown[]; ports?: { port: number }[] }[];
      };
    };
    const policies = parseAllDocuments(readFileSync(join(k8s, 'network-policies.yaml'), 'utf8')).map(
      (d) => d.toJS() as Policy,
    );
    const toGatewayHttp = policies
      .filter((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === 'gateway')
      .flatMap((p) => p.spec.ingress ?? [])
      .filter((rule) => (rule.ports ?? []).some((port) => port.port === 3000));
    expect(toGatewayHttp.length).toBeGreaterThan(0);
    // A rule without `from` admits every pod of the cluster: each must name where the traffic comes from.
    expect(toGatewayHttp.map((rule) => rule.from ?? [])).toEqual([
      [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
    ]);
    const gateway = readFileSync(join(k8s, 'gateway.yaml'), 'utf8');
    expect(gateway).toMatch(/name: TRUST_PROXY\s+value: '1'/);
  });

  it('carry no development values: no public development account, no inline partner secret', () => {
    const text = readdirSync(k8s)
      .map((f) => readFileSync(join(k8s, f), 'utf8'))
      .join('\n')
      .toLowerCase();
    expect(DEVELOPMENT_ACCOUNTS.filter((a) => text.includes(a.toLowerCase()))).toEqual([]);
    expect(text).not.toMatch(/"secret"\s*:/);
  });
});

type K8sObject = {
  kind: string;
  metadata: { name: string };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: { template: { spec: { containers: { env?: { name: string; value?: string }[] }[] } } };
};
const k8sObjects = (file: string): K8sObject[] =>
  parseAllDocuments(readFileSync(join(k8s, file), 'utf8')).map((doc) => doc.toJS() as K8sObject);
const named = (objects: K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name)!;

/**
 * What each app of the kustomization boots with: the ConfigMap and the Secret (secret.example.yaml, its empty values
 * filled in as an operator would), the Deployment's own variables, and the image's NODE_ENV=production.
 */
describe('the shipped Kubernetes configuration boots each app under the production guards (security review N-L3)', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'k8s-env-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function environment(app: string): Record<string, string> {
    const config = k8sObjects('configmap.yaml');
    const secrets = k8sObjects('secret.example.yaml');
    const partnersFile = join(dir, 'partners.json');
    writeFileSync(partnersFile, named(config, 'ConfigMap', 'intent-service-partners').data!['partners.json']);
    const chains = JSON.parse(
      named(secrets, 'Secret', 'intent-service-chains').stringData!['chains.json'],
    ) as {
      chains: { chainId: number; rpcUrl: string }[];
    };
    for (const chain of chains.chains) chain.rpcUrl = `https://rpc-${chain.chainId}.example/v2/key`;
    const chainsFile = join(dir, 'chains.json');
    writeFileSync(chainsFile, JSON.stringify(chains));
    const filled = Object.fromEntries(
      Object.entries(named(secrets, 'Secret', 'intent-service-secrets').stringData!).map(([name, value]) => [
        name,
        value === ''
          ? name === 'EVENTSTOREDB_URL'
            ? 'kurrentdb://u:p@db.example:2113?tls=true'
            : `${name}-0123456789abcdef`
          : value,
      ]),
    );
    const deployment = named(k8sObjects(`${app}.yaml`), 'Deployment', app);
    const own = Object.fromEntries(
      (deployment.spec!.template.spec.containers[0].env ?? [])
        .filter((e) => e.value !== undefined)
        .map((e) => [e.name, e.value!]),
    );
    return {
      ...named(config, 'ConfigMap', 'intent-service-config').data,
      ...filled,
      ...own,
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111', // the placeholder, replaced
      ACROSS_INTEGRATOR_ID: '0xdead', // commented out in the ConfigMap: required while a partner allows across
      PARTNERS_FILE: partnersFile,
      CHAINS_FILE: chainsFile,
    };
  }

  it.each(['gateway', 'quoting', 'execution', 'settlement-tracker', 'webhook-dispatcher'])('%s', (app) => {
    const runtime = loadRuntime(environment(app), app, { distributed: true });
    expect(runtime.config.production).toBe(true);
    expect(runtime.chains.chainIds().sort((a, b) => a - b)).toEqual([1, 8453, 42161]);
  });

  it('and would not without PROVIDER_CHAINS: the providers serve chains chains.json does not list', () => {
    const env = environment('quoting');
    delete env['PROVIDER_CHAINS'];
    expect(() => loadRuntime(env, 'quoting', { distributed: true })).toThrow(
      /CHAINS_FILE: does not list chains the providers serve/,
    );
  });
});

// compose-check is a small Go program on compose-go, the library Docker Compose loads files with; it needs Go.
const go = spawnSync('go', ['version'], { encoding: 'utf8' });
const goMissing = go.status !== 0 ? `go is not installed (${go.error?.message ?? go.stderr.trim()})` : null;
if (goMissing) process.stdout.write(`compose file check: skipped, ${goMissing}\n`);

// Skipped where Go is not installed (the reason is printed above); CI's machine has it.
(goMissing ? describe.skip : describe)('the compose file (docker/compose.yaml), loaded by compose-go', () => {
  let bin: string;
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-check-'));
    bin = join(dir, 'compose-check');
    const build = spawnSync('go', ['build', '-o', bin, '.'], {
      cwd: join(__dirname, 'compose-check'),
      encoding: 'utf8',
    });
    if (build.status !== 0) throw new Error(`go build failed:\n${build.stderr}`);
  }, 240_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const check = (env: Record<string, string>) =>
    spawnSync(bin, [compose], {
      encoding: 'utf8',
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
    });

  it('is valid, every profile included, once its required variables are given', () => {
    const run = check({
      SERVICE_FEE_RECIPIENT: '0x1111111111111111111111111111111111111111',
      PARTNERS_FILE_HOST: '../config/partners.dev.json',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/valid \(\d+ services\)/);
  });

  it('stops at once, naming them, without the fee recipient and the partners file: no working dev default', () => {
    const run = check({});
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/SERVICE_FEE_RECIPIENT/);
    expect(run.stderr).toMatch(/PARTNERS_FILE_HOST/);
  });
});

const overlays = join(root, 'docker', 'k8s-overlays');
type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
};
/**
 * kustomize writes `'0x33…'` (a 160-bit address) unquoted: Go's YAML reads a hex literal past 64 bits as a string, the
 * yaml package as a number. Hex integers read as strings here, as kubectl reads these.
 */
const hexAsString = (tags: ScalarTag[]) =>
  tags.filter((t) => !(t.tag === 'tag:yaml.org,2002:int' && t.format === 'HEX'));
const manifests = (text: string): Manifest[] =>
  parseAllDocuments(text, { customTags: hexAsString as never })
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((o): o is Manifest => o !== null);

/** The patches of an overlay whose kind and name match no object of the base: kustomize would refuse them. */
function unmatchedPatches(overlay: string): string[] {
  const kustomization = manifests(
    readFileSync(join(overlay, 'kustomization.yaml'), 'utf8'),
  )[0] as unknown as {
    resources: string[];
    patches: { path: string }[];
  };
  const base = join(overlay, kustomization.resources[0]);
  const baseResources = (
    manifests(readFileSync(join(base, 'kustomization.yaml'), 'utf8'))[0] as unknown as { resources: string[] }
  ).resources;
  const known = new Set(
    baseResources.flatMap((file) =>
      manifests(readFileSync(join(base, file), 'utf8')).map((o) => `${o.kind}/${o.metadata.name}`),
    ),
  );
  return kustomization.patches
    .flatMap(({ path }) => manifests(readFileSync(join(overlay, path), 'utf8')))
    .map((o) => `${o.kind}/${o.metadata.name}`)
    .filter((target) => !known.has(target));
}

type PodTemplate = {
  terminationGracePeriodSeconds?: number;
  containers: {
    image: string;
    lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  }[];
};
const podOf = (o: Manifest) => (o.spec!['template'] as { spec: PodTemplate }).spec;

/** The gateway waits for load balancers to drop it, then has time for a request in flight: the grace period covers both. */
function expectGatewayDrain(objects: Manifest[]) {
  const pod = podOf(objects.find((o) => o.kind === 'Deployment' && o.metadata.name === 'gateway')!);
  const preStop = pod.containers[0].lifecycle?.preStop?.sleep?.seconds ?? 0;
  const busTimeout =
    Number(
      objects.find((o) => o.metadata.name === 'intent-service-config')!.data!['BUS_REQUEST_TIMEOUT_MS'],
    ) / 1000;
  expect(preStop).toBeGreaterThanOrEqual(5);
  expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(preStop + busTimeout + 5);
}

describe('the gateway drains before it stops (docker/k8s/gateway.yaml)', () => {
  it('waits in preStop, and its grace period covers that wait plus a request in flight', () => {
    expectGatewayDrain([...k8sObjects('gateway.yaml'), ...k8sObjects('configmap.yaml')] as Manifest[]);
  });
});

/**
 * The settlement trackers' Relay requests a minute in all: each pod's RELAY_REQUESTS_PER_MINUTE (200 unset) times the
 * replicas, the overlay's count when it patches one. Relay allows one key 200.
 */
function relayRequestsPerMinute(overlay: string | null): number {
  const base = manifests(readFileSync(join(root, 'docker', 'k8s', 'settlement-tracker.yaml'), 'utf8')).find(
    (o) => o.kind === 'Deployment',
  )!;
  const env = podOf(base).containers[0] as unknown as { env?: { name: string; value?: string }[] };
  const perPod = Number(env.env?.find((e) => e.name === 'RELAY_REQUESTS_PER_MINUTE')?.value ?? 200);
  let replicas = Number(base.spec!['replicas'] ?? 1);
  if (overlay !== null) {
    const kustomization = manifests(
      readFileSync(join(overlay, 'kustomization.yaml'), 'utf8'),
    )[0] as unknown as {
      patches: { path: string }[];
    };
    for (const { path } of kustomization.patches)
      for (const o of manifests(readFileSync(join(overlay, path), 'utf8')))
        if (
          o.kind === 'Deployment' &&
          o.metadata.name === 'settlement-tracker' &&
          o.spec?.['replicas'] !== undefined
        )
          replicas = Number(o.spec['replicas']);
  }
  return perPod * replicas;
}

describe("the settlement trackers share Relay's key: 200 requests a minute in all", () => {
  it.each([
    ['the base', null],
    ['dev', join(overlays, 'dev')],
    ['prod', join(overlays, 'prod')],
  ])('%s', (_name, overlay) => {
    expect(relayRequestsPerMinute(overlay)).toBeLessThanOrEqual(200);
  });
});

describe('the kustomize overlays (docker/k8s-overlays): each patch names an object of the base', () => {
  it.each(['dev', 'prod'])('%s', (env) => {
    expect(unmatchedPatches(join(overlays, env))).toEqual([]);
  });

  it('a patch naming no object of the base is reported (the check can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'overlay-'));
    try {
      cpSync(join(root, 'docker'), join(dir, 'docker'), { recursive: true });
      const scale = join(dir, 'docker', 'k8s-overlays', 'prod', 'scale.yaml');
      writeFileSync(scale, readFileSync(scale, 'utf8').replace('name: quoting', 'name: quoter'));
      expect(unmatchedPatches(join(dir, 'docker', 'k8s-overlays', 'prod'))).toEqual(['Deployment/quoter']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Rendering needs kustomize: kubectl's (`kubectl kustomize`, what `kubectl apply -k` runs) or the kustomize binary.
const renderer = [
  ['kubectl', 'kustomize'],
  ['kustomize', 'build'],
].find(([bin]) => spawnSync(bin, ['version', ...(bin === 'kubectl' ? ['--client'] : [])]).status === 0);
if (!renderer)
  process.stdout.write('kustomize overlays: rendering skipped, neither kubectl nor kustomize is installed\n');

(renderer ? describe : describe.skip)(
  'each overlay, rendered by kustomize, against the schemas of kubernetes-models',
  () => {
    let dir: string;
    const rendered: Record<string, Manifest[]> = {};
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'overlays-'));
      for (const env of ['dev', 'prod']) {
        const run = spawnSync(renderer![0], [renderer![1], join(overlays, env)], { encoding: 'utf8' });
        if (run.status !== 0) throw new Error(`${renderer!.join(' ')} ${env} failed:\n${run.stderr}`);
        mkdirSync(join(dir, env));
        rendered[env] = manifests(run.stdout);
        writeFileSync(join(dir, env, 'rendered.yaml'), rendered[env].map((o) => stringify(o)).join('---\n'));
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const deployment = (env: string, name: string) =>
      rendered[env].find((o) => o.kind === 'Deployment' && o.metadata.name === name)!;

    it.each(['dev', 'prod'])('%s: valid, every image pinned by digest, the gateway draining', (env) => {
      const run = validateK8s(join(dir, env));
      expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
      const images = rendered[env]
        .filter((o) => o.spec?.['template'])
        .flatMap((o) => podOf(o).containers.map((c) => c.image));
      expect(images.length).toBeGreaterThanOrEqual(6);
      expect(images.filter((image) => !/@sha256:[0-9a-f]{64}$/.test(image))).toEqual([]);
      expect(images).toContain(`${KAFKA_CONTAINER_IMAGE}@sha256:${'0'.repeat(64)}`);
      expectGatewayDrain(rendered[env]);
    });

    it('prod: TLS and SASL to the brokers, production replica counts', () => {
      const config = rendered['prod'].find((o) => o.metadata.name === 'intent-service-config')!.data!;
      expect([config['KAFKA_SSL'], config['KAFKA_SASL_MECHANISM']]).toEqual(['true', 'scram-sha-512']);
      expect(
        ['quoting', 'execution', 'settlement-tracker', 'webhook-dispatcher'].map(
          (app) => deployment('prod', app).spec!['replicas'],
        ),
      ).toEqual([3, 3, 2, 2]);
      const hpa = rendered['prod'].find((o) => o.kind === 'HorizontalPodAutoscaler')!.spec!;
      expect([hpa['minReplicas'], hpa['maxReplicas']]).toEqual([3, 10]);
    });

    it('dev: its own namespace, one replica each, budgets that let a node drain', () => {
      expect(
        rendered['dev'].filter(
          (o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'intent-service-dev',
        ),
      ).toEqual([]);
      expect(rendered['dev'].find((o) => o.kind === 'Namespace')!.metadata.name).toBe('intent-service-dev');
      expect(
        ['quoting', 'execution', 'settlement-tracker', 'webhook-dispatcher'].map(
          (app) => deployment('dev', app).spec!['replicas'],
        ),
      ).toEqual([1, 1, 1, 1]);
      const budgets = rendered['dev'].filter((o) => o.kind === 'PodDisruptionBudget').map((o) => o.spec);
      expect(budgets).toHaveLength(5);
      for (const budget of budgets) expect(budget).toMatchObject({ maxUnavailable: 1 });
      for (const budget of budgets) expect(budget).not.toHaveProperty('minAvailable');
    });
  },
);
