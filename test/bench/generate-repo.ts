import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes a code-like repository of about `nodeCount` graph nodes: a tree of
 * directories, 20 TypeScript files to a directory, each importing up to three
 * others, mostly nearby. Deterministic for a given size.
 */
export function generateRepo(root: string, nodeCount: number): { files: number; directories: number } {
  const filesPerDirectory = 20;
  const fanOut = 8;
  const directoryCount = Math.max(1, Math.round(nodeCount / (filesPerDirectory + 1)));
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const directories: string[] = [''];
  for (let i = 1; i < directoryCount; i++) {
    const parent = directories[Math.floor((i - 1) / fanOut)]!;
    directories.push(parent === '' ? `pkg${i}` : `${parent}/mod${i}`);
  }
  const files: string[] = [];
  for (const directory of directories) {
    mkdirSync(path.join(root, directory), { recursive: true });
    for (let f = 0; f < filesPerDirectory && directories.length + files.length < nodeCount; f++)
      files.push(directory === '' ? `file${f}.ts` : `${directory}/file${f}.ts`);
  }
  files.forEach((file, index) => {
    const lines: string[] = [];
    const imports = Math.floor(random() * 4);
    for (let k = 0; k < imports; k++) {
      // Mostly local: a file in the same directory or close by in the listing.
      const near = random() < 0.8;
      const target = files[near ? Math.min(files.length - 1, Math.max(0, index + Math.floor((random() - 0.5) * 40))) : Math.floor(random() * files.length)]!;
      if (target === file) continue;
      let specifier = path.posix.relative(path.posix.dirname(file), target).replace(/\.ts$/, '.js');
      if (!specifier.startsWith('.')) specifier = `./${specifier}`;
      lines.push(`import { value as v${k} } from '${specifier}';`);
    }
    lines.push(`export const value = ${index};`, `export function f${index}(x: number): number {`, '  return x + value;', '}', '');
    writeFileSync(path.join(root, file), lines.join('\n'));
  });
  return { files: files.length, directories: directories.length };
}
