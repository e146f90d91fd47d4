// Validates every Kubernetes manifest under docker/k8s against the Kubernetes API schemas that the maintained
// `kubernetes-models` package carries (an npm package: nothing is downloaded at test time). Each document's
// apiVersion/kind picks its model; a document no model knows, a schema violation (a missing required field, a wrong
// type, an unknown enum value), or a kustomization naming a missing file is reported, and the exit code is 1.
// Usage: node tools/manifests/validate-k8s.mjs [dir]   (ESM: kubernetes-models is published as ES modules only)
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

const dir = process.argv[2] ?? 'docker/k8s';
const problems = [];
let checked = 0;

/** `apps/v1` → `kubernetes-models/apps/v1`; the core group `v1` → `kubernetes-models/v1`. */
async function modelFor(apiVersion, kind) {
  try {
    const group = await import(`kubernetes-models/${apiVersion}`);
    return group[kind] ?? null;
  } catch {
    return null;
  }
}

for (const file of readdirSync(dir)
  .filter((f) => /\.ya?ml$/.test(f))
  .sort()) {
  const path = join(dir, file);
  const docs = parseAllDocuments(readFileSync(path, 'utf8'));
  for (const [index, doc] of docs.entries()) {
    const at = `${path}#${index}`;
    if (doc.errors.length > 0) {
      problems.push(`${at}: not YAML: ${doc.errors[0].message}`);
      continue;
    }
    const object = doc.toJS();
    if (object === null) continue;
    const { apiVersion, kind } = object;
    if (apiVersion === 'kustomize.config.k8s.io/v1beta1' && kind === 'Kustomization') {
      for (const resource of object.resources ?? [])
        if (!existsSync(join(dir, resource)))
          problems.push(`${at}: resources names ${resource}, which is missing`);
      checked++;
      continue;
    }
    const Model = await modelFor(apiVersion, kind);
    if (Model === null) {
      problems.push(`${at}: no schema for ${apiVersion} ${kind}`);
      continue;
    }
    try {
      new Model(object).validate();
      checked++;
    } catch (error) {
      problems.push(`${at} (${kind} ${object.metadata?.name ?? '?'}): ${error.message}`);
    }
  }
}

for (const problem of problems) console.error(problem);
console.log(`${dir}: ${checked} documents valid, ${problems.length} problems`);
process.exit(problems.length > 0 ? 1 : 0);
