/**
 * Precision of the import edges of the languages other than JavaScript and
 * TypeScript, against each language's own resolver, on real repositories
 * fetched for the purpose (never committed). For now Python: its edges
 * against python3's import system (`python-import-reference.py`: `ast` for
 * the imports, `importlib.machinery.PathFinder` for where they lead, no code
 * of the repository run), in the same run as Strata's index.
 *
 *   npm run bench:polyglot -- <repository> [<repository> ...]
 *
 * Python's search path for the reference (python-import-reference.py):
 * each file's project (the nearest folder with a `pyproject.toml`,
 * `setup.py` or `setup.cfg`, or the repository) gives its roots, `src/` and
 * the folder itself; a module under `src/` is imported by its name from
 * there, any other file as a script or test runs (its base first). Edges are compared file -> file, one per pair; the differences
 * are printed with the specifiers that led to them, up to 10 of each kind.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { indexRepository } from '@strata/host';

const REFERENCE = fileURLToPath(new URL('./python-import-reference.py', import.meta.url));
const SAMPLES = 10;

interface PythonReference {
  files: number;
  syntaxErrors: number;
  edges: Array<[source: string, target: string, specifier: string]>;
  outside: number;
  namespace: number;
  missing: Array<[source: string, specifier: string]>;
}

/** The repository's Python projects: folders with a `pyproject.toml`, `setup.py` or `setup.cfg` (repository-relative). */
function pythonProjects(repository: string): string[] {
  const manifests = execFileSync('git', ['-C', repository, 'ls-files', '-z', '--', '*pyproject.toml', '*setup.py', '*setup.cfg'], { encoding: 'utf8' })
    .split('\0')
    .filter((file) => ['pyproject.toml', 'setup.py', 'setup.cfg'].includes(path.posix.basename(file)));
  return [...new Set(manifests.map((file) => path.posix.dirname(file)).map((dir) => (dir === '.' ? '' : dir)))];
}

async function benchRepository(repository: string): Promise<string> {
  const name = path.basename(repository);
  const started = performance.now();
  const graph = await indexRepository({ repository, env: { STRATA_INDEX_CACHE: 'false' } });
  const strataMs = performance.now() - started;
  const strata = new Map<string, string[]>();
  let pythonFiles = 0;
  for (const node of graph.nodes) if (node.kind === 'file' && /\.pyi?$/.test(node.path)) pythonFiles++;
  for (const edge of graph.edges) {
    if (edge.kind !== 'imports' || !/^file:.*\.py$/.test(edge.source) || !edge.target.startsWith('file:')) continue;
    strata.set(`${edge.source.slice(5)} -> ${edge.target.slice(5)}`, edge.specifiers ?? []);
  }
  const projects = pythonProjects(repository);
  const referenceStarted = performance.now();
  const output = execFileSync('python3', [REFERENCE, repository, ...projects], { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  const referenceMs = performance.now() - referenceStarted;
  const reference = JSON.parse(output) as PythonReference;
  const expected = new Map<string, string[]>();
  for (const [source, target, specifier] of reference.edges) {
    const key = `${source} -> ${target}`;
    expected.set(key, [...(expected.get(key) ?? []), specifier]);
  }
  const both = [...expected.keys()].filter((key) => strata.has(key));
  const onlyStrata = [...strata.keys()].filter((key) => !expected.has(key));
  const onlyReference = [...expected.keys()].filter((key) => !strata.has(key));
  console.log(`\n${name}: ${pythonFiles} Python files (${reference.syntaxErrors} that python3 cannot parse); ${projects.length} project folders`);
  console.log(`  Strata's index ${strataMs.toFixed(0)} ms (every language), the reference ${referenceMs.toFixed(0)} ms`);
  console.log(
    `  reference: ${reference.outside} imports lead outside the repository, ${reference.namespace} to namespace packages, ${reference.missing.length} found nowhere`,
  );
  for (const [label, keys, from] of [
    ['only Strata', onlyStrata, strata],
    ['only the reference', onlyReference, expected],
  ] as const) {
    if (keys.length === 0) continue;
    console.log(`  ${label} (${keys.length}):`);
    for (const key of keys.slice(0, SAMPLES)) console.log(`    ${key}  ${JSON.stringify([...new Set(from.get(key))])}`);
  }
  const found = expected.size === 0 ? 1 : both.length / expected.size;
  return `| ${name} | Python | ${pythonFiles} | ${expected.size} | ${strata.size} | ${both.length} | ${onlyStrata.length} | ${onlyReference.length} | ${(100 * found).toFixed(1)} % |`;
}

const repositories = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
if (repositories.length === 0) {
  console.error('usage: npm run bench:polyglot -- <repository> [<repository> ...]');
  process.exit(2);
}
const rows: string[] = [];
for (const repository of repositories) rows.push(await benchRepository(path.resolve(repository)));
console.log('\n| repository | language | files | reference edges | Strata edges | both | only Strata | only reference | reference edges found |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(row);
process.exit(0);
