import { closeSync, constants, openSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * The one way the indexer opens a file of the repository: a symbolic link
 * is followed only when its real path stays inside the repository. The
 * repository is untrusted: a link `src/leak.ts -> ../../secret.ts` or
 * `-> /etc/shadow` must not have its target read (the server may run as
 * root), so such a link is refused before anything is opened.
 *
 * The common case costs one `open`: it is made with `O_NOFOLLOW`, which
 * fails with `ELOOP` when the path's last component is a link; only then is
 * the link's real path looked up, checked, and opened (with `O_NOFOLLOW`
 * again, so that a link swapped in since cannot be followed), and, on Linux,
 * the open file's own path (`/proc/self/fd/N`) checked once more. Links to
 * directories are never followed by the walker, so the directories above a
 * listed file are real ones (a directory swapped for a link between the
 * listing and the read is not caught on that path).
 */
export class OutsideRepositoryError extends Error {
  readonly code = 'EOUTSIDE';
  constructor(readonly target: string) {
    super(`a symbolic link to ${target}, outside the repository`);
  }
}

/** What a skipped link's reason says (listing and reading alike). */
export const OUTSIDE_REASON = 'symbolic link to outside the repository (not followed)';

const NO_FOLLOW = constants.O_NOFOLLOW;
const realRoots = new Map<string, { text: string; bytes: Buffer }>();

/** The repository root with its own links resolved, as text and as bytes ending with a separator (cached per root). */
function realRoot(root: string): { text: string; bytes: Buffer } {
  let real = realRoots.get(root);
  if (real === undefined) {
    let text: string;
    try {
      text = realpathSync(root);
    } catch {
      text = path.resolve(root);
    }
    real = { text, bytes: Buffer.from(text.endsWith(path.sep) ? text : text + path.sep) };
    realRoots.set(root, real);
  }
  return real;
}

/** Whether `real` (a path with its links resolved, as bytes) is the root or below it. */
function isInsideRoot(root: string, real: Buffer): boolean {
  const { bytes } = realRoot(root);
  // The root itself, or a path that begins with the root and a separator.
  if (real.length === bytes.length - 1) return real.equals(bytes.subarray(0, -1));
  return real.length >= bytes.length && real.subarray(0, bytes.length).equals(bytes);
}

/**
 * The real path of a link (chains and relative targets resolved), or an
 * `OutsideRepositoryError` when it leaves the repository. Throws as
 * `realpathSync` does for a broken link or a loop. Paths are strings, or
 * bytes for names that are not UTF-8 (`fileSystemPath`).
 */
export function realPathInside(root: string, absolute: string | Buffer): Buffer {
  const real = realpathSync(absolute, { encoding: 'buffer' });
  if (!isInsideRoot(root, real)) throw new OutsideRepositoryError(real.toString('utf8'));
  return real;
}

/**
 * Opens `absolute` (a path inside `root`) read-only and non-blocking (a path
 * that became a pipe cannot stop the reader), following a link only to a
 * file inside the repository. Throws `OutsideRepositoryError` for a link
 * that leaves it, and what `openSync` throws otherwise.
 */
export function openInRepository(root: string, absolute: string | Buffer): number {
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  if (NO_FOLLOW === undefined) {
    // No O_NOFOLLOW (Windows): the real path is looked at first.
    return openSync(realPathInside(root, absolute), flags);
  }
  try {
    return openSync(absolute, flags | NO_FOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
  }
  // The last component is a link (or a loop, which realpathSync reports as ELOOP).
  const real = realPathInside(root, absolute);
  const fd = openSync(real, flags | NO_FOLLOW);
  if (process.platform === 'linux') {
    let opened: Buffer | undefined;
    try {
      opened = readlinkSync(`/proc/self/fd/${fd}`, { encoding: 'buffer' });
    } catch {
      // No /proc: the checks above stand.
    }
    if (opened !== undefined && !isInsideRoot(root, opened)) {
      closeSync(fd);
      throw new OutsideRepositoryError(opened.toString('utf8'));
    }
  }
  return fd;
}
