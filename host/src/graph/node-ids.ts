/**
 * Node and edge ids are derived from repository paths alone, so the same
 * file has the same id across restarts and re-indexing. They are plain
 * strings; clients put them in URLs with `encodeURIComponent`.
 */

/** Path of the repository root directory node. */
export const ROOT_PATH = '.';

/** Id of a directory node; the root is `dir:.`. */
export function directoryId(path: string): string {
  return `dir:${path}`;
}

/** Id of a file node. */
export function fileId(path: string): string {
  return `file:${path}`;
}

/** Id of a package node: `pkg:react`, `pkg:@scope/name`, `pkg:node:fs`. */
export function packageId(name: string): string {
  return `pkg:${name}`;
}

/** Id of a symbol: `sym:src/a.ts#helper`, or `sym:src/a.ts#Shape.area` for a method. */
export function symbolId(filePath: string, name: string, container?: string): string {
  return `sym:${filePath}#${container === undefined ? name : `${container}.${name}`}`;
}

/** Id of an edge: `<kind>:<source>-><target>`. */
export function edgeId(kind: string, source: string, target: string): string {
  return `${kind}:${source}->${target}`;
}
