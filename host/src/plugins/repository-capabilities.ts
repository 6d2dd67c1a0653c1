import type { Capability } from '@strata/sdk';
import { inject, injectable } from 'tsyringe';
import { CapabilityError } from './capability-error.js';
import { FileCapabilities } from './file-capabilities.js';
import { GitCapabilities } from './git-capabilities.js';

/**
 * The capabilities that reach outside the sandbox, confined to the served
 * repository: git history and blame (GitCapabilities), file contents and
 * listings (FileCapabilities). Every argument is checked there, whatever the
 * plugin's runtime checked before; paths by RepositoryPaths.
 */
@injectable()
export class RepositoryCapabilities {
  constructor(
    @inject(GitCapabilities) private readonly git: GitCapabilities,
    @inject(FileCapabilities) private readonly files: FileCapabilities,
  ) {}

  /**
   * Runs capability `name` for `pluginId` with the plugin's arguments.
   * `signal` aborts when the apply ends: queued work is dropped and git
   * processes still running are killed.
   */
  call(pluginId: string, name: Capability, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    switch (name) {
      case 'git:log':
        return this.git.gitLog(args[0], this.git.callFor(pluginId, signal));
      case 'git:blame':
        return args[1] === 'many'
          ? this.git.gitBlameMany(args[0], this.git.callFor(pluginId, signal))
          : this.git.gitBlame(args[0], this.git.callFor(pluginId, signal));
      case 'files:read':
        return this.files.readFile(args[0], signal);
      case 'files:list':
        return this.files.listFiles(args[0], signal);
      default:
        return Promise.reject(new CapabilityError(`capability "${name}" is not served by the host (graph:read and inputs:read live in the sandbox)`));
    }
  }

  /** Drops what was kept for `pluginId`'s calls (the plugin has gone). */
  forget(pluginId: string): void {
    this.git.forget(pluginId);
  }

  /** Ends the git threads (after the sandboxes, whose calls they answer). */
  close(): Promise<void> {
    return this.git.close();
  }
}
