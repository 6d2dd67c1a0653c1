import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';
import { parentOf, settledPath } from './repository-paths.js';

/** A `composer.json` of the repository's own (not one of a package under a `vendor/` directory). */
const COMPOSER_MANIFEST = /(?:^|\/)composer\.json$/;
const VENDORED = /(?:^|\/)vendor\//;
/** The most installed packages read from one `vendor/` directory without an `installed.json`. */
const MAX_VENDOR_PACKAGES = 5_000;

/** One namespace prefix of an `autoload` or `autoload-dev` section and a directory it maps to (a repository path; `''` the root). */
export interface AutoloadRule {
  standard: 'psr-4' | 'psr-0';
  /** With its trailing `\` (PSR-4), or as written (PSR-0, where `Twig_` is a prefix); `''` for the fallback. */
  prefix: string;
  directory: string;
  /** The `composer.json` that says so. */
  manifest: string;
}

/**
 * What the repository's `composer.json` files say about where classes are:
 * the PSR-4 and PSR-0 rules of their `autoload` and `autoload-dev` (every
 * manifest of a monorepo, as its root's autoloader merges them: PSR-4 by
 * the longest prefix first, then PSR-0), their `files`, and the namespace
 * prefixes of the packages installed in the `vendor/` directory beside each
 * (its `vendor-dir`), read from `vendor/composer/installed.json` or, without
 * one, from each `vendor/<vendor>/<package>/composer.json`. Manifests under a
 * `vendor/` directory are packages, not the repository's own.
 */
export class ComposerAutoload {
  private constructor(
    readonly psr4: readonly AutoloadRule[],
    readonly psr0: readonly AutoloadRule[],
    /** Each manifest's autoload `files` (repository paths). */
    private readonly files: ReadonlyMap<string, readonly string[]>,
    /** Installed packages' prefixes, the longest first, and the package that declares each (`monolog/monolog`). */
    readonly vendorPrefixes: ReadonlyArray<readonly [string, string]>,
    /** The packages the manifests require (`require`, `require-dev`), by their names with only letters and digits, lower case (`guzzlehttp/psr7`). */
    private readonly required: ReadonlyMap<string, string>,
  ) {}

  static discover(root: string, repository: RepositoryFiles): ComposerAutoload {
    const psr4: AutoloadRule[] = [];
    const psr0: AutoloadRule[] = [];
    const files = new Map<string, string[]>();
    const vendor = new Map<string, string>();
    const required = new Map<string, string>();
    const manifests = [...repository.filePaths()]
      .filter((file) => COMPOSER_MANIFEST.test(file) && !VENDORED.test(file))
      .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b));
    for (const manifest of manifests) {
      const json = readJson(root, path.join(root, manifest));
      if (!json) continue;
      const directory = parentOf(manifest);
      const listed: string[] = [];
      for (const section of [json.autoload, json['autoload-dev']]) {
        if (!isObject(section)) continue;
        for (const [standard, rules] of [
          ['psr-4', psr4],
          ['psr-0', psr0],
        ] as const) {
          const mapping = section[standard];
          if (!isObject(mapping)) continue;
          for (const [written, paths] of Object.entries(mapping)) {
            const prefix = standard === 'psr-4' && written !== '' && !written.endsWith('\\') ? `${written}\\` : written;
            for (const each of Array.isArray(paths) ? paths : [paths]) {
              if (typeof each !== 'string') continue;
              const mapped = normalize(directory, each);
              if (mapped !== undefined) rules.push({ standard, prefix: prefix.replace(/^\\/, ''), directory: mapped, manifest });
            }
          }
        }
        if (Array.isArray(section.files))
          for (const each of section.files) {
            const file = typeof each === 'string' ? normalize(directory, each) : undefined;
            if (file !== undefined) listed.push(file);
          }
      }
      files.set(manifest, listed);
      for (const section of [json.require, json['require-dev']]) {
        if (!isObject(section)) continue;
        for (const name of Object.keys(section)) if (name.includes('/')) required.set(comparable(name), name);
      }
      const config = isObject(json.config) ? json.config : {};
      const vendorDir = typeof config['vendor-dir'] === 'string' ? config['vendor-dir'] : 'vendor';
      readVendor(root, path.join(root, directory, vendorDir), vendor);
    }
    // Composer's loader tries the longest matching prefix first; the manifests in order (the shallowest first) within one.
    const byLength = (a: AutoloadRule, b: AutoloadRule): number => b.prefix.length - a.prefix.length;
    return new ComposerAutoload(
      psr4.sort(byLength),
      psr0.sort(byLength),
      files,
      [...vendor].sort((a, b) => b[0].length - a[0].length || a[0].localeCompare(b[0])),
      required,
    );
  }

  /** The autoload `files` of `manifest`. */
  filesOf(manifest: string): readonly string[] {
    return this.files.get(manifest) ?? [];
  }

  /** The installed package whose prefix the fully qualified `name` starts with, if any. */
  vendorPackageOf(name: string): string | undefined {
    return this.vendorPrefixes.find(([prefix]) => name.startsWith(prefix))?.[1];
  }

  /**
   * The required package a fully qualified name most likely belongs to,
   * when nothing installed says (no `vendor/`): by Composer's naming habit,
   * the package named after the namespace's first segment and the second,
   * the second and third, or the third (`GuzzleHttp\Psr7\Uri`:
   * guzzlehttp/psr7; `Psr\Http\Message\X`: psr/http-message;
   * `Symfony\Component\Console\X`: symfony/console), or the first again
   * (`Monolog\Logger`: monolog/monolog).
   */
  requiredPackageOf(name: string): string | undefined {
    const segments = name.split('\\').slice(0, -1);
    if (segments.length === 0 || this.required.size === 0) return undefined;
    const vendor = comparable(segments[0]!);
    const candidates = [segments[1], segments[1] !== undefined && segments[2] !== undefined ? segments[1] + segments[2] : undefined, segments[2], segments[0]];
    for (const candidate of candidates) {
      if (candidate === undefined) continue;
      const found = this.required.get(`${vendor}/${comparable(candidate)}`);
      if (found) return found;
    }
    return undefined;
  }

  equals(other: ComposerAutoload): boolean {
    return JSON.stringify(this.state()) === JSON.stringify(other.state());
  }

  private state(): unknown {
    return [this.psr4, this.psr0, [...this.files], this.vendorPrefixes, [...this.required]];
  }
}

/** A package name or namespace segment with only its letters and digits, lower case (`http-message` and `HttpMessage` alike). */
function comparable(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9/]/g, '');
}

/** Adds the prefixes of the packages installed in `vendorDirectory` (absolute), when there is one. */
function readVendor(root: string, vendorDirectory: string, prefixes: Map<string, string>): void {
  // Composer 2 writes `{ "packages": [...] }`, Composer 1 the list alone.
  const installed = readJsonValue(root, path.join(vendorDirectory, 'composer', 'installed.json'));
  let packages: unknown[] = [];
  if (Array.isArray(installed)) packages = installed;
  else if (isObject(installed)) packages = Array.isArray(installed.packages) ? installed.packages : [];
  else {
    for (const owner of listDirectory(vendorDirectory)) {
      if (owner === 'composer' || owner === 'bin' || owner.startsWith('.')) continue;
      for (const name of listDirectory(path.join(vendorDirectory, owner))) {
        if (packages.length >= MAX_VENDOR_PACKAGES) break;
        const manifest = readJson(root, path.join(vendorDirectory, owner, name, 'composer.json'));
        if (manifest) packages.push({ name: `${owner}/${name}`, ...manifest });
      }
    }
  }
  for (const entry of packages) {
    if (!isObject(entry) || typeof entry.name !== 'string' || !isObject(entry.autoload)) continue;
    for (const standard of ['psr-4', 'psr-0']) {
      const mapping = entry.autoload[standard];
      if (!isObject(mapping)) continue;
      for (const written of Object.keys(mapping)) {
        const prefix = written.replace(/^\\/, '');
        if (prefix !== '' && !prefixes.has(prefix)) prefixes.set(prefix, entry.name);
      }
    }
  }
}

function listDirectory(directory: string): string[] {
  try {
    return readdirSync(directory).sort();
  } catch {
    return [];
  }
}

function readJsonValue(root: string, file: string): unknown {
  const text = readOptional(root, file);
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function readJson(root: string, file: string): Record<string, unknown> | undefined {
  const value = readJsonValue(root, file);
  return isObject(value) ? value : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `relative` (a manifest's path: `src/`, `./lib`, `''`) from `directory`, `.` and `..` folded; undefined when it climbs above the root or is absolute. */
export function normalize(directory: string, relative: string): string | undefined {
  if (relative.startsWith('/') || /^[A-Za-z]:[\\/]/.test(relative)) return undefined;
  return settledPath(directory, relative.replaceAll('\\', '/'));
}
