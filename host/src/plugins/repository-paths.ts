import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { StrataConfig } from '../config/strata-config.js';
import { fileSystemPath, isQuotedName, isWellFormedQuotedName } from '../graph/file-names.js';
import { CapabilityError } from './capability-error.js';

/**
 * The served repository as plugins may name it: repository-relative paths,
 * checked before any capability touches the file system or git.
 */
@injectable()
export class RepositoryPaths {
  private realRoot: Promise<string> | undefined;
  private realDataDir: Promise<string> | undefined;

  constructor(@inject(StrataConfig) private readonly config: StrataConfig) {}

  /**
   * A repository-relative path the plugin named, checked: no absolute paths,
   * no `..` out of the root, nothing under `.git` or the data directory, and
   * no symlink that resolves outside the repository.
   */
  async confined(value: unknown, where: string): Promise<string> {
    if (typeof value !== 'string' || value.length === 0 || value.length > 4096 || value.includes('\0'))
      throw new CapabilityError(`${where}: a path must be a non-empty string`);
    if (path.isAbsolute(value) || path.win32.isAbsolute(value))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is absolute; paths are relative to the repository root`);
    // Backslashes separate as slashes do, except in a quoted name (one that is not UTF-8: `"\\377.ts"`), where they escape.
    const normalized = path.posix.normalize(
      value
        .split('/')
        .map((component) => (isQuotedName(component) ? component : component.replace(/\\/g, '/')))
        .join('/'),
    );
    if (normalized.split('/').some((component) => isQuotedName(component) && !isWellFormedQuotedName(component)))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} has a quoted name that is not one the graph gives`);
    if (normalized === '..' || normalized.startsWith('../')) throw new CapabilityError(`${where}: ${JSON.stringify(value)} leaves the repository`);
    // Any .git along the way (the repository's, a submodule's, a vendored one's), in any case.
    if (normalized.split('/').some((segment) => segment.toLowerCase() === '.git'))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside .git`);
    const [root, dataDir] = await Promise.all([this.root(), this.dataDir()]);
    const absolute = path.join(root, normalized);
    // Compared after symlinks are resolved, for the root, the data directory and the path alike; a name that is not
    // UTF-8 (quoted in its path) is resolved by its bytes.
    const real = await realpath(fileSystemPath(root, normalized), { encoding: 'buffer' }).then(
      (bytes) => bytes.toString('utf8'),
      () => absolute,
    );
    if (real !== root && !real.startsWith(root + path.sep))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is a link that leads out of the repository`);
    if (real === dataDir || real.startsWith(dataDir + path.sep) || absolute === dataDir || absolute.startsWith(dataDir + path.sep)) {
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} is inside Strata's data directory`);
    }
    if (real.split(path.sep).some((segment) => segment.toLowerCase() === '.git'))
      throw new CapabilityError(`${where}: ${JSON.stringify(value)} leads inside .git`);
    return normalized;
  }

  private dataDir(): Promise<string> {
    this.realDataDir ??= realpath(this.config.dataDir).catch(() => path.resolve(this.config.dataDir));
    return this.realDataDir;
  }

  /** The repository root, symlinks resolved. */
  root(): Promise<string> {
    this.realRoot ??= realpath(this.config.repositoryRoot);
    return this.realRoot;
  }
}
