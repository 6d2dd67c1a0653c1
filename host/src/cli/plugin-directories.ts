import { statSync } from 'node:fs';
import { UsageError } from './usage-error.js';

/** Help text of `--plugins`, the same for `strata serve` and `strata overlay`. */
export const PLUGINS_OPTION_HELP = 'folders holding plugins (a plugin folder, or a folder of them); STRATA_PLUGINS_DIRECTORIES does the same, comma-separated';

/**
 * The folders given with `--plugins`, checked: a folder named on the command
 * line that is not there is a typo, said plainly rather than as a log line.
 */
export function pluginDirectories(dirs: string[]): string[] {
  for (const dir of dirs) {
    const found = statSync(dir, { throwIfNoEntry: false });
    if (!found) throw new UsageError(`--plugins: ${dir} does not exist`);
    if (!found.isDirectory()) throw new UsageError(`--plugins: ${dir} is not a folder`);
  }
  return dirs;
}
