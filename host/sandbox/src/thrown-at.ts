/**
 * Where in the author's own source a plugin threw: the first frame of the
 * error's stack in the plugin's entry, mapped back through the source map the
 * build writes beside it (`dist/plugin.js.map`), as a path relative to the
 * plugin's folder (`src/index.ts:12:5`). Without a map, the place in the
 * entry itself.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SourceMapConsumer } from 'source-map-js';

export function thrownAt(stack: string, entryUrl: string, folder: string | undefined): string | undefined {
  if (!stack || !entryUrl.startsWith('file:')) return undefined;
  const at = stack.indexOf(`${entryUrl}:`);
  if (at < 0) return undefined;
  const position = /^:(\d+):(\d+)/.exec(stack.slice(at + entryUrl.length));
  if (!position) return undefined;
  const line = Number(position[1]);
  const column = Number(position[2]);
  const entryPath = fileURLToPath(entryUrl);
  const base = folder ?? path.dirname(entryPath);
  const shown = (file: string, l: number, c: number): string => `${path.relative(base, file).split(path.sep).join('/')}:${l}:${c}`;
  try {
    const map = new SourceMapConsumer(JSON.parse(readFileSync(`${entryPath}.map`, 'utf8')));
    const original = map.originalPositionFor({ line, column: column - 1 });
    if (original.source && original.line) return shown(path.resolve(path.dirname(entryPath), original.source), original.line, (original.column ?? 0) + 1);
  } catch {
    // No map, or not one this can read: the place in the entry.
  }
  return shown(entryPath, line, column);
}
