import { createHash } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { type LayerBlob } from './deterministic-layer';

export const MEDIA = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layer: 'application/vnd.oci.image.layer.v1.tar+gzip',
} as const;

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  annotations?: Record<string, string>;
  platform?: { architecture: string; os: string };
}

/** The runtime part of an OCI image config (what `docker inspect` shows as Config). */
export interface ImageRuntimeConfig {
  User: string;
  Env: string[];
  WorkingDir: string;
  Entrypoint: string[];
  Cmd?: string[];
  ExposedPorts: Record<string, Record<string, never>>;
  Volumes: Record<string, Record<string, never>>;
  Labels: Record<string, string>;
}

export interface ImageConfig {
  created: string;
  architecture: string;
  os: string;
  config: ImageRuntimeConfig;
  rootfs: { type: 'layers'; diff_ids: string[] };
  history: { created: string; created_by: string; comment?: string }[];
}

export const blobPath = (dir: string, digest: string) =>
  join(dir, 'blobs', 'sha256', digest.replace(/^sha256:/, ''));

/** Writes a JSON blob (no whitespace, keys in the order given) and returns its descriptor. */
export function writeJsonBlob(dir: string, mediaType: string, value: unknown): Descriptor {
  const bytes = Buffer.from(JSON.stringify(value));
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  mkdirSync(join(dir, 'blobs', 'sha256'), { recursive: true });
  writeFileSync(blobPath(dir, digest), bytes);
  return { mediaType, digest, size: bytes.length };
}

/** The config, the manifest and index.json around layers already in blobs/sha256 (an OCI image layout, v1.0). */
export function writeImageLayout(
  dir: string,
  config: ImageConfig,
  layers: readonly LayerBlob[],
  refName: string,
): Descriptor {
  const configDescriptor = writeJsonBlob(dir, MEDIA.config, config);
  const manifest = writeJsonBlob(dir, MEDIA.manifest, {
    schemaVersion: 2,
    mediaType: MEDIA.manifest,
    config: configDescriptor,
    layers: layers.map((l) => ({ mediaType: MEDIA.layer, digest: l.digest, size: l.size })),
  });
  const descriptor: Descriptor = {
    ...manifest,
    annotations: { 'org.opencontainers.image.ref.name': refName },
    platform: { architecture: config.architecture, os: config.os },
  };
  writeFileSync(join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  writeFileSync(
    join(dir, 'index.json'),
    JSON.stringify({ schemaVersion: 2, mediaType: MEDIA.index, manifests: [descriptor] }),
  );
  return descriptor;
}

/** A layout's one image, every blob checked against its descriptor, as a runtime pulling it would. */
export interface VerifiedImage {
  manifest: Descriptor;
  config: ImageConfig;
  layers: { digest: string; size: number; diffId: string; file: string }[];
}

/**
 * Reads the layout's index, manifest and config and checks each digest and size, and each layer's diff_id (the
 * sha256 of its uncompressed tar); throws naming the first that does not match.
 */
export async function verifyImageLayout(dir: string): Promise<VerifiedImage> {
  const layout = JSON.parse(readFileSync(join(dir, 'oci-layout'), 'utf8')) as { imageLayoutVersion: string };
  if (layout.imageLayoutVersion !== '1.0.0')
    throw new Error(`oci-layout: version ${layout.imageLayoutVersion}`);
  const index = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { manifests: Descriptor[] };
  if (index.manifests.length !== 1)
    throw new Error(`index.json: ${index.manifests.length} manifests, expected 1`);
  const manifestDescriptor = index.manifests[0];
  const manifest = JSON.parse(readBlob(dir, manifestDescriptor).toString()) as {
    config: Descriptor;
    layers: Descriptor[];
  };
  const config = JSON.parse(readBlob(dir, manifest.config).toString()) as ImageConfig;
  if (config.rootfs.diff_ids.length !== manifest.layers.length)
    throw new Error('diff_ids and layers differ in number');
  const layers = [];
  for (const [i, layer] of manifest.layers.entries()) {
    if (layer.mediaType !== MEDIA.layer) throw new Error(`layer ${i}: media type ${layer.mediaType}`);
    const file = blobPath(dir, layer.digest);
    const gz = createHash('sha256');
    const tar = createHash('sha256');
    let size = 0;
    await pipeline(
      createReadStream(file).on('data', (c: string | Buffer) => {
        gz.update(c);
        size += Buffer.byteLength(c);
      }),
      createGunzip(),
      async (source: AsyncIterable<Buffer>) => {
        for await (const c of source) tar.update(c);
      },
    );
    check(`layer ${i} digest`, `sha256:${gz.digest('hex')}`, layer.digest);
    check(`layer ${i} size`, size, layer.size);
    check(`layer ${i} diff_id`, `sha256:${tar.digest('hex')}`, config.rootfs.diff_ids[i]);
    layers.push({ digest: layer.digest, size, diffId: config.rootfs.diff_ids[i], file });
  }
  return { manifest: manifestDescriptor, config, layers };
}

function readBlob(dir: string, descriptor: Descriptor): Buffer {
  const bytes = readFileSync(blobPath(dir, descriptor.digest));
  check(
    `${descriptor.mediaType} digest`,
    `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    descriptor.digest,
  );
  check(`${descriptor.mediaType} size`, bytes.length, descriptor.size);
  return bytes;
}

function check(what: string, actual: unknown, expected: unknown): void {
  if (actual !== expected) throw new Error(`${what}: ${String(actual)}, descriptor says ${String(expected)}`);
}
