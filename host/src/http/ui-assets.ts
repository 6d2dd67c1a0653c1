import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Negotiator from 'negotiator';
import { injectable } from 'tsyringe';

/** Where `host/scripts/build-ui.ts` writes the web UI: `dist/ui` beside this module's `dist/http`. */
export const UI_BUILD_DIR = fileURLToPath(new URL('../ui/', import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The page may load only what this server serves, and talk only to it. Its
 * one inline script (the boot script, written into the page by the build) is
 * allowed by its hash, computed here from the page as served.
 */
function pageSecurityHeaders(page: Buffer): Record<string, string> {
  const inlineScripts = [...page.toString('utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`,
  );
  return {
    'content-security-policy':
      `default-src 'self'; script-src 'self'${inlineScripts.map((hash) => ` ${hash}`).join('')}; worker-src 'self'; connect-src 'self'; ` +
      "img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'none'",
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

/** One file of the UI, with its precompressed forms. */
interface Asset {
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
  contentType: string;
  etag: string;
  /** Files named by their content's hash never change: browsers keep them for a year. */
  immutable: boolean;
}

/** Asset paths: `/` and `/assets/<name>`; nothing else is ever read. */
const ASSET_PATH = /^\/(?:assets\/[A-Za-z0-9_-][A-Za-z0-9._-]*)?$/;

/**
 * The web UI's files, read once into memory from the build and served with
 * the encoding the browser prefers (brotli, gzip, none), content-hash ETags,
 * and caching for a year for the hashed assets. The page itself is always
 * revalidated, so that a new build is picked up at the next load.
 */
@injectable()
export class UiAssets {
  private readonly assets = new Map<string, Asset>();
  private pageHeaders: Record<string, string> = {};

  constructor() {
    const directory = UI_BUILD_DIR;
    const page = path.join(directory, 'index.html');
    if (!existsSync(page)) return;
    this.add('/', page, false);
    this.pageHeaders = pageSecurityHeaders(this.assets.get('/')!.identity);
    const assetsDir = path.join(directory, 'assets');
    if (!existsSync(assetsDir)) return;
    for (const name of readdirSync(assetsDir)) {
      if (/\.(gz|br)$/.test(name)) continue;
      this.add(`/assets/${name}`, path.join(assetsDir, name), /-[A-Z0-9]{8}\.[a-z]+(\.map)?$/.test(name));
    }
  }

  /** Whether the UI was built. */
  get available(): boolean {
    return this.assets.has('/');
  }

  /** Whether a raw request path (no query) names a UI file: such requests need no token, the UI holds no data. */
  static isAssetPath(rawPath: string): boolean {
    return ASSET_PATH.test(rawPath);
  }

  /** Answers a GET or HEAD for `urlPath`; false when there is no such file. */
  serve(urlPath: string, request: IncomingMessage, response: ServerResponse): boolean {
    const asset = this.assets.get(urlPath);
    if (!asset) return false;
    const headers: Record<string, string | number> = {
      'content-type': asset.contentType,
      etag: asset.etag,
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
      'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(urlPath === '/' && this.pageHeaders),
    };
    if (request.headers['if-none-match'] === asset.etag) {
      response.writeHead(304, headers);
      response.end();
      return true;
    }
    const offered = [...(asset.br ? ['br'] : []), ...(asset.gzip ? ['gzip'] : []), 'identity'];
    const encoding = new Negotiator(request).encoding(offered) ?? 'identity';
    const body = encoding === 'br' ? asset.br! : encoding === 'gzip' ? asset.gzip! : asset.identity;
    if (encoding !== 'identity') headers['content-encoding'] = encoding;
    headers['content-length'] = body.length;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
    return true;
  }

  private add(urlPath: string, file: string, immutable: boolean): void {
    const identity = readFileSync(file);
    const compressed = (suffix: string): Buffer | undefined => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
    this.assets.set(urlPath, {
      identity,
      gzip: compressed('.gz'),
      br: compressed('.br'),
      contentType: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream',
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
      immutable,
    });
  }
}
