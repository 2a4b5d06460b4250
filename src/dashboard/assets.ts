// The dashboard's stylesheet and scripts, served under content-hashed names (dashboard.3f9a…c1.css)
// with a year's immutable cache: a page links the names of the files it was rendered with, so a
// new release is fetched at once and an unchanged file never again. Each file is compressed once,
// when first asked for (brotli and gzip), not per request. The plain names still answer, briefly cached, for
// pages rendered before a release.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const TYPES: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };
export const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Compressed {
  br?: Buffer;
  gzip?: Buffer;
}

interface Asset {
  type: string;
  identity: Buffer;
  /** Made on first request, then kept: brotli at quality 11 takes about 0.25 s for the ALTCHA widget, too much for every start. */
  compressed: Compressed;
  immutable: boolean;
}

function compressedAs(asset: Asset, encoding: 'br' | 'gzip'): Buffer {
  asset.compressed[encoding] ??= encoding === 'br'
    ? brotliCompressSync(asset.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
    : gzipSync(asset.identity, { level: 9 });
  return asset.compressed[encoding];
}

const folder = new URL('./assets/', import.meta.url);
const byName = new Map<string, Asset>();
const hashedName = new Map<string, string>();

/**
 * Files served from a dependency under a name of ours. altcha.js: the ALTCHA widget's self-contained
 * browser build (its UMD bundle: a classic script, styles and workers inlined, so a site's page loads
 * it cross-origin without CORS) for forms whose captcha_provider is altcha; no CDN.
 */
const VENDORED: Record<string, URL> = {
  // The package's `require` entry is dist/main/altcha.umd.cjs; its minified twin sits beside it.
  'altcha.js': new URL('altcha.umd.min.cjs', pathToFileURL(createRequire(import.meta.url).resolve('altcha'))),
};

const sources: Array<[string, URL]> = [...fs.readdirSync(folder).map((file): [string, URL] => [file, new URL(file, folder)]), ...Object.entries(VENDORED)];

for (const [file, source] of sources) {
  const extension = file.split('.').pop() ?? '';
  const type = TYPES[extension];
  if (!type) continue;
  const identity = fs.readFileSync(source);
  const hash = createHash('sha256').update(identity).digest('hex').slice(0, 12);
  const versioned = `${file.slice(0, -extension.length - 1)}.${hash}.${extension}`;
  // One set of compressed copies for both names.
  const variants = { type, identity, compressed: {} };
  byName.set(versioned, { ...variants, immutable: true });
  byName.set(file, { ...variants, immutable: false });
  hashedName.set(file, versioned);
}

/** The URL of an asset under its content-hashed name. */
export function assetUrl(file: string): string {
  const versioned = hashedName.get(file);
  if (!versioned) throw new Error(`no dashboard asset named ${file}`);
  return `/assets/${versioned}`;
}

/** Sends an asset in the best encoding the client takes; false when there is none of that name. */
export function sendAsset(request: FastifyRequest, reply: FastifyReply, name: string): FastifyReply | false {
  const asset = byName.get(name);
  if (!asset) return false;
  const accepted = String(request.headers['accept-encoding'] ?? '');
  const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : null;
  reply.type(asset.type).header('vary', 'accept-encoding').header('cache-control', asset.immutable ? IMMUTABLE : 'public, max-age=300');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding ? compressedAs(asset, encoding) : asset.identity);
}
