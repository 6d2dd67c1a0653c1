/**
 * Repository-relative paths, as the resolvers of every language handle
 * them: forward slashes, no leading `./`, `''` for the root.
 */

/** The directory of a repository path (`''` for a file at the root). */
export function parentOf(file: string): string {
  const slash = file.lastIndexOf('/');
  return slash === -1 ? '' : file.slice(0, slash);
}

/** `relative` (already settled, without `.` or `..`) inside `directory`; either may be `''`. */
export function joinPath(directory: string, relative: string): string {
  return directory === '' ? relative : relative === '' ? directory : `${directory}/${relative}`;
}

/** Whether `directory` is `ancestor` or below it. */
export function contains(ancestor: string, directory: string): boolean {
  return ancestor === '' || directory === ancestor || directory.startsWith(`${ancestor}/`);
}

/** `relative` (forward slashes) from `directory`, with `.`, `..` and empty segments settled; undefined when it climbs above the root. */
export function settledPath(directory: string, relative: string): string | undefined {
  const segments = directory === '' ? [] : directory.split('/');
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length === 0) return undefined;
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return segments.join('/');
}
