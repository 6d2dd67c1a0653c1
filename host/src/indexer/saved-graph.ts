import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphEdge, GraphNode } from '@strata/sdk';
import { startThread } from '../concurrency/start-thread.js';
import type { StrataConfig } from '../config/strata-config.js';
import type { SkippedEntry, UnresolvedImport } from '../graph/code-graph.js';
import { fileSystemPath } from '../graph/file-names.js';
import { createDataDirectory } from '../storage/create-data-directory.js';
import { COMPILATION_DATABASES } from './c-include-directories.js';
import { FILE_FACTS_CACHE_FILE, type FileFactsCache } from './file-facts-cache.js';
import type { FileFacts, FileSignature } from './file-reader.js';
import { checkListing, type HelpRequest, holds, type PathSignature, type SavedHeader, SHARED_SLOTS, signatureOf } from './saved-graph-check.js';
import { TrackedFiles } from './tracked-files.js';

/** The saved graph's files in the data directory: the graph, and what it was made by and from (read first, on a thread of its own). */
export const SAVED_GRAPH_FILE = 'graph.json';
export const SAVED_GRAPH_CHECK_FILE = 'graph-check.json';

/** Raised when what the files hold, or how they are checked, changes. */
const FORMAT = 2;

/** A header this long or longer (about 1,000 files) has a helper thread start its check while the graph is parsed; a shorter one is checked on this thread alone. */
const THREAD_CHECK_BYTES = 150_000;
/**
 * Only with this many cores or more: a thread's start costs about as much as it saves on two cores shared with
 * other work (typescript-eslint's warm call: 140 to 170 ms without, 110 to 360 ms with).
 */
const HELPER_MIN_CORES = 4;

/** What a build gave, as served: the graph and the diagnostics of its build info. */
export interface GraphParts {
  nodes: GraphNode[];
  edges: GraphEdge[];
  skipped: SkippedEntry[];
  unresolvedCount: number;
  unresolved: UnresolvedImport[];
}

/** What a build was made from, to check a later start against. */
export interface BuildSources {
  /** The listed directories (the root excluded), as the walk gave them. */
  directories: readonly string[];
  /** Every listed file's facts, with the signature it had when it was read. */
  facts: readonly FileFacts[];
  /** The `.gitignore` files the walk read (repository-relative). */
  ruleFiles: readonly string[];
  /** What the walk left out for a reason other than an ignore rule (links that lead nowhere, unreadable directories...). */
  skipped: readonly SkippedEntry[];
  tracked: TrackedFiles;
}

/** A saved graph that still holds. */
export interface HeldGraph {
  parts: GraphParts;
  /** Its JSON, to compare with a graph made later from the files. */
  text: string;
  fileCount: number;
}

/**
 * The last build's graph, kept in the data directory (`graph.json`) beside
 * the facts cache, with what it was made from: every listed file's and
 * directory's size, times and inode, the ignore files, git's index and
 * what the resolvers read beside the listed files. A start with nothing
 * changed serves it as it is, without listing, reading or resolving:
 * a directory's times change with any entry made, removed or renamed in it,
 * a file's with its content. The graph is saved only when nothing it was
 * made from changed shortly before or during the build (as the facts cache
 * leaves out such files: a later change within the same tick of the clock
 * would go unseen). Outside its folders (`node_modules` below its top
 * level, directories the ignore rules leave out, files above the
 * repository) nothing is checked, as the watcher does not watch them either.
 */
export class SavedGraph {
  constructor(
    private readonly config: StrataConfig,
    private readonly factsCache: FileFactsCache,
  ) {}

  private get graphFile(): string {
    return path.join(this.config.dataDir, SAVED_GRAPH_FILE);
  }

  private get checkFile(): string {
    return path.join(this.config.dataDir, SAVED_GRAPH_CHECK_FILE);
  }

  /**
   * The saved graph, when `index.cache` is on and nothing it was made from
   * changed; undefined otherwise (and when it cannot be read). Never rejects.
   * The listed files and directories are looked at on a thread of their
   * own (for a large repository) while this one reads and parses the graph.
   */
  async load(): Promise<HeldGraph | undefined> {
    if (!this.config.index.cache) return undefined;
    const prefix = this.config.repositoryRoot + path.sep;
    try {
      const headerText = readFileSync(this.checkFile, 'utf8');
      const shared = new Int32Array(new SharedArrayBuffer(SHARED_SLOTS * Int32Array.BYTES_PER_ELEMENT));
      // A helper thread starts on the stats while this one reads and parses the graph, then joins it.
      if (headerText.length >= THREAD_CHECK_BYTES && availableParallelism() >= HELPER_MIN_CORES)
        startHelper({ headerText, prefix, shared: shared.buffer as SharedArrayBuffer });
      const content = readFileSync(this.graphFile, 'utf8');
      const newline = content.indexOf('\n');
      if (newline === -1) return undefined;
      const text = content.slice(newline + 1);
      const parts = decodeGraph(text);
      const header = JSON.parse(headerText) as SavedHeader;
      if (header.format !== FORMAT || header.token !== content.slice(0, newline) || header.settings !== this.settings()) return undefined;
      // The key is made again (reading the indexer's modules, finding the parsers' packages) only when what it was made from changed.
      const keyHolds = header.keyInputs?.every(([input, signature]) => holds(input, signature)) === true;
      if (!keyHolds && header.key !== this.key()) return undefined;
      if (!checkListing(header, prefix, shared)) return undefined;
      for (const [other, signature] of header.others) if (!holds(other, signature)) return undefined;
      if (!holds(path.join(this.config.dataDir, FILE_FACTS_CACHE_FILE), header.factsFile)) return undefined;
      if (header.tracked) {
        const now = await trackedNow(this.config.repositoryRoot, header.tracked);
        if (!now.holds) return undefined;
        // git rewrote its index with the same paths (`git status` refreshes it): the next start need not list them.
        if (now.signature !== header.tracked.signature) this.keepTrackedSignature(header, headerText, now.signature);
      }
      return { parts, text, fileCount: header.fileCount };
    } catch {
      return undefined;
    }
  }

  /**
   * Writes the check file again with git's index signature `signature` (the
   * same tracked paths), after the start that found it: a start lists them
   * again only when the index changes again. Racy signatures are not kept.
   * Never rejects; a check file replaced meanwhile (a build saved) is left.
   */
  private keepTrackedSignature(header: SavedHeader, headerText: string, signature: string | undefined): void {
    if (!header.tracked || signature === undefined) return;
    const [, , mtimeMs] = signature.split(':').map(Number);
    if (mtimeMs === undefined || Date.now() - mtimeMs < 2_000) return;
    const tracked = { ...header.tracked, signature };
    setImmediate(() => {
      void (async () => {
        if (readFileSync(this.checkFile, 'utf8') !== headerText) return;
        await writeWhole(this.checkFile, [JSON.stringify({ ...header, tracked })]);
      })().catch(() => {});
    });
  }

  /**
   * Saves a build's graph with what it was made from, when `index.cache` is
   * on; when something it was made from changed shortly before
   * `buildStartedAt` (a `Date.now()`) or since, removes the saved one
   * instead. Resolves with why it could not, if it could not; never rejects.
   */
  async save(parts: GraphParts, sources: BuildSources, buildStartedAt: number): Promise<string | undefined> {
    if (!this.config.index.cache) return undefined;
    try {
      // Loaded by the build that made the graph (the parsers come with it).
      const { isRacy } = await import('./file-reader.js');
      const header = headerOf(this.config.repositoryRoot, this.key(), sources, buildStartedAt, isRacy);
      if (header) {
        header.settings = this.settings();
        const inputs = [...(this.factsCache.keyInputs() ?? []), ...GRAPH_MODULES.map((module) => fileURLToPath(new URL(module, import.meta.url)))];
        const keyInputs = inputs.map((input): [string, PathSignature] => [input, signatureOf(input)]);
        // Modules built just before could change again unseen: the key is then made again at the next start.
        header.keyInputs = keyInputs.some(([, signature]) => signature && isRacy(signature, buildStartedAt)) ? null : keyInputs;
      }
      if (!header) {
        rmSync(this.checkFile, { force: true });
        rmSync(this.graphFile, { force: true });
        return undefined;
      }
      // Written just before (renamed into place: a new inode each time), so not racy.
      header.factsFile = signatureOf(path.join(this.config.dataDir, FILE_FACTS_CACHE_FILE));
      createDataDirectory(this.config.dataDir);
      // The graph first: until the header that names its token is in place, no start takes it.
      await writeWhole(this.graphFile, [`${header.token}\n`, savedText(parts)]);
      await writeWhole(this.checkFile, [JSON.stringify(header)]);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** The settings the graph depends on (the key has them too: they are compared when the key is not made again). */
  private settings(): string {
    return JSON.stringify([FORMAT, this.config.repositoryRoot, this.config.index.maxFileBytes, this.config.dataDir]);
  }

  /** What the graph depends on beside the files: the facts cache's key (the indexer's code, the parsers, the settings, the repository), the graph's own modules and the data directory (left out of the listing). */
  private key(): string {
    const hash = createHash('sha256').update(JSON.stringify([FORMAT, this.factsCache.currentKey() ?? null, this.config.dataDir]));
    for (const module of GRAPH_MODULES) hash.update(readFileSync(new URL(module, import.meta.url)));
    return hash.digest('hex');
  }
}

/** Modules outside this folder whose code decides what the graph holds (node ids, the size of the unresolved sample). */
const GRAPH_MODULES = ['../graph/node-ids.js', '../graph/code-graph.js'];

/** What ancestors of the repository may hold that the JavaScript resolver reads (a package, a tsconfig, installed packages) or that makes it a work tree. */
const ANCESTOR_ENTRIES = ['node_modules', 'package.json', 'tsconfig.json', 'jsconfig.json', '.git'];

/** The id prefix of the node kinds whose id is the prefix and the path (`node-ids.ts`). */
const PATH_ID_PREFIXES: Readonly<Record<string, string>> = { directory: 'dir:', file: 'file:', package: 'pkg:' };

/** An edge whose id is `kind:source->target` between two nodes of the graph: [source, target] for `contains`, else [source, target, kind, its other fields]. */
type SavedEdge = [source: number, target: number] | [source: number, target: number, kind: string, rest?: Record<string, unknown>];

/**
 * The graph's JSON as saved, and as compared with a graph made later: what
 * can be made again from the rest is left out, which makes it less than
 * half as long and quicker to parse (and to collect after). A node's id
 * when it is its kind's prefix and its path, a node's parent and an edge's
 * ends as the index of their node, an edge's id. Each is left out only when
 * what it would be made from gives it exactly, so `decodeGraph` gives the
 * same graph, fields in the same order.
 */
export function savedText(parts: GraphParts): string {
  const indexes = new Map<string, number>();
  for (let i = 0; i < parts.nodes.length; i++) indexes.set(parts.nodes[i]!.id, i);
  const nodes = parts.nodes.map((node) => {
    const { id, ...rest } = node as GraphNode & { parent?: unknown };
    // A derivable id stays as 0, so that the parsed object has its fields in their order and takes the id in place.
    const out: Record<string, unknown> = { id: Object.keys(node)[0] === 'id' && id === PATH_ID_PREFIXES[node.kind] + node.path ? 0 : id, ...rest };
    const parent = typeof rest.parent === 'string' ? indexes.get(rest.parent) : undefined;
    if (parent !== undefined) out.parent = parent;
    return out;
  });
  const edges = parts.edges.map((edge): SavedEdge | GraphEdge => {
    const { id, source, target, kind, ...rest } = edge;
    const from = indexes.get(source);
    const to = indexes.get(target);
    const keys = Object.keys(edge);
    if (
      from === undefined ||
      to === undefined ||
      id !== `${kind}:${source}->${target}` ||
      keys[0] !== 'id' ||
      keys[1] !== 'source' ||
      keys[2] !== 'target' ||
      keys[3] !== 'kind'
    )
      return edge;
    if (keys.length === 4) return kind === 'contains' ? [from, to] : [from, to, kind];
    return [from, to, kind, rest];
  });
  return JSON.stringify({ nodes, edges, skipped: parts.skipped, unresolvedCount: parts.unresolvedCount, unresolved: parts.unresolved });
}

/** The graph `savedText` wrote. */
function decodeGraph(text: string): GraphParts {
  const saved = JSON.parse(text) as Omit<GraphParts, 'nodes' | 'edges'> & { nodes: Array<Record<string, unknown>>; edges: Array<SavedEdge | GraphEdge> };
  // In place: a new object per node was as much again to collect.
  const nodes = saved.nodes;
  for (const node of nodes) if (node.id === 0) node.id = PATH_ID_PREFIXES[node.kind as string]! + (node.path as string);
  const ids = nodes.map((node) => node.id as string);
  for (const node of nodes) if (typeof node.parent === 'number') node.parent = ids[node.parent];
  const edges = saved.edges.map((edge): GraphEdge => {
    if (!Array.isArray(edge)) return edge;
    const source = ids[edge[0]]!;
    const target = ids[edge[1]]!;
    const kind = edge.length === 2 ? 'contains' : edge[2];
    const made = { id: `${kind}:${source}->${target}`, source, target, kind };
    return (edge.length === 4 ? { ...made, ...edge[3] } : made) as GraphEdge;
  });
  return { nodes: nodes as unknown as GraphNode[], edges, skipped: saved.skipped, unresolvedCount: saved.unresolvedCount, unresolved: saved.unresolved };
}

/** The header of a build's graph, or undefined when something it was made from changed shortly before the build or since. */
function headerOf(
  root: string,
  key: string,
  sources: BuildSources,
  buildStartedAt: number,
  isRacy: (signature: FileSignature, moment: number) => boolean,
): SavedHeader | undefined {
  const paths: string[] = [];
  const signatures: number[] = [];
  const listed = new Set<string>();
  for (const facts of sources.facts) {
    const { signature } = facts;
    // A file that could not be read may be readable later unchanged.
    if (!signature || isRacy(signature, buildStartedAt) || facts.error?.startsWith('unreadable')) return undefined;
    paths.push(facts.path);
    signatures.push(...signature);
    listed.add(facts.path);
  }
  const fileCount = paths.length;
  for (const directory of ['', ...sources.directories]) {
    const signature = signatureOf(fileSystemPath(root, directory));
    if (!signature || isRacy(signature, buildStartedAt)) return undefined;
    paths.push(directory);
    signatures.push(...signature);
  }
  const others = new Set<string>([path.join(root, '.git', 'info', 'exclude'), ...COMPILATION_DATABASES.map((file) => path.join(root, file))]);
  for (const file of sources.ruleFiles) if (!listed.has(file)) others.add(path.join(root, file));
  for (const entry of sources.skipped) others.add(path.join(root, entry.path));
  for (const directory of ['', ...sources.directories]) {
    const modules = path.join(root, directory, 'node_modules');
    if (signatureOf(modules)) others.add(modules);
  }
  for (let directory = path.dirname(root); ; directory = path.dirname(directory)) {
    for (const entry of ANCESTOR_ENTRIES) others.add(path.join(directory, entry));
    if (path.dirname(directory) === directory) break;
  }
  const checked: SavedHeader['others'] = [];
  for (const other of others) {
    const signature = signatureOf(other);
    if (signature && isRacy(signature, buildStartedAt)) return undefined;
    checked.push([other, signature]);
  }
  const index = sources.tracked.indexState();
  const tracked = index && { indexFile: index.indexFile, signature: index.signature, hash: trackedHash(sources.tracked.paths()) };
  return {
    format: FORMAT,
    token: randomBytes(12).toString('hex'),
    key,
    paths,
    signatures,
    fileCount,
    others: checked,
    factsFile: null,
    tracked: tracked ?? null,
    settings: '',
    keyInputs: null,
  };
}

/** Whether git's index lists the same paths: the same index file, or the same paths listed again. */
/** Whether git's index still tracks the paths it tracked (by its file's signature, else by listing them), and that signature now. */
async function trackedNow(root: string, saved: NonNullable<SavedHeader['tracked']>): Promise<{ holds: boolean; signature: string | undefined }> {
  if (saved.signature !== undefined && TrackedFiles.indexSignature(saved.indexFile) === saved.signature) return { holds: true, signature: saved.signature };
  const now = await TrackedFiles.read(root, saved.indexFile);
  return { holds: trackedHash(now.paths()) === saved.hash, signature: now.indexState()?.signature };
}

function trackedHash(paths: Iterable<string>): string {
  return createHash('sha256')
    .update([...paths].sort().join('\0'))
    .digest('hex');
}

/** Writes a file whole under a temporary name, then renames it into place. */
async function writeWhole(file: string, pieces: readonly string[]): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  let output: FileHandle | undefined;
  try {
    output = await open(temporary, 'w');
    for (const piece of pieces) await output.write(piece);
    await output.close();
    output = undefined;
    await rename(temporary, file);
  } catch (error) {
    await output?.close().catch(() => {});
    await rm(temporary, { force: true }).catch(() => {});
    throw error;
  }
}

/** Starts a thread that helps check the listing; none when it cannot start (the caller checks it all). */
function startHelper(request: HelpRequest): void {
  try {
    const helper = startThread(new URL('./saved-graph-check.js', import.meta.url), { workerData: { savedGraphCheck: request } });
    helper.on('error', () => {});
    // It must not keep the process alive, nor be waited for at exit.
    helper.unref();
  } catch {
    // Not started.
  }
}
