import { lstatSync, type Stats, statSync } from 'node:fs';
import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { eventLoopTurns } from '../concurrency/event-loop-turns.js';
import { FIRST_CLIENTS_MS, ForegroundRequests, NO_FOREGROUND_REQUESTS } from '../concurrency/foreground-requests.js';
import { StrataConfig } from '../config/strata-config.js';
import type { CodeGraph, GraphBuildInfo, SkippedEntry } from '../graph/code-graph.js';
import { fileSystemPath } from '../graph/file-names.js';
import type { BuildProgress, GraphRefresh, GraphSource } from '../graph/graph-source.js';
import { Logger } from '../logging/logger.js';
import { FileFactsCache } from './file-facts-cache.js';
import type { FileFacts } from './file-reader.js';
import type { FileReaderPool, GrowingFileList } from './file-reader-pool.js';
import type { ImportResolver } from './import-resolver.js';
import { OUTSIDE_REASON, OutsideRepositoryError, realPathInside } from './repository-file.js';
import type { RepositoryGraphModel } from './repository-graph-model.js';
import type { RepositoryListing, RepositoryWalker } from './repository-walker.js';
import { type BuildSources, type GraphParts, SavedGraph, savedText } from './saved-graph.js';
import { TrackedFiles } from './tracked-files.js';

/**
 * The modules of a full build, loaded by the first one: a start that serves
 * the saved graph needs none of them (the parsers' native bindings, the
 * resolvers), and loading them was a good part of its time.
 */
async function loadBuildModules() {
  const [fileReader, fileReaderPool, importResolver, languageResolvers, graphModel, walker, sourceAnalyzers, workspacePackages] = await Promise.all([
    import('./file-reader.js'),
    import('./file-reader-pool.js'),
    import('./import-resolver.js'),
    import('./language-import-resolvers.js'),
    import('./repository-graph-model.js'),
    import('./repository-walker.js'),
    import('./source-analyzers.js'),
    import('./workspace-packages.js'),
  ]);
  return {
    isRacy: fileReader.isRacy,
    signatureHolds: fileReader.signatureHolds,
    FileReaderPool: fileReaderPool.FileReaderPool,
    ImportResolver: importResolver.ImportResolver,
    discoverLanguageResolvers: languageResolvers.discoverLanguageResolvers,
    RepositoryGraphModel: graphModel.RepositoryGraphModel,
    specifierStem: graphModel.specifierStem,
    RepositoryWalker: walker.RepositoryWalker,
    sourceAnalyzerFor: sourceAnalyzers.sourceAnalyzerFor,
    WorkspacePackages: workspacePackages.WorkspacePackages,
  };
}

type BuildModules = Awaited<ReturnType<typeof loadBuildModules>>;
let buildModulesLoading: Promise<BuildModules> | undefined;
/** Set once `buildModulesLoading` is done: what the functions below a build use. */
let loadedBuildModules: BuildModules;

function buildModules(): Promise<BuildModules> {
  buildModulesLoading ??= loadBuildModules().then((loaded) => (loadedBuildModules = loaded));
  return buildModulesLoading;
}

/** Files whose change alters how every import resolves. */
const RESOLUTION_FILES = /(^|\/)(tsconfig(\.[\w-]+)?\.json|jsconfig\.json|package\.json|pnpm-workspace\.yaml)$/;
/** Files whose change alters what is listed at all. */
const LISTING_FILES = /(^|\/)\.gitignore$|^\.git\/info\/exclude$/;

/** A directory made this long before it was listed, or later, may hold entries the listing did not see. */
const RACY_MS = 2_000;
/** Files a cold build lists between two looks at what the reading threads sent. */
const WALK_STEP_FILES = 256;
/** Longest stretch of the check against the files without a turn for requests. */
const TURN_MS = 10;
/** Files whose signatures the check compares between two looks at the clock. */
const STAT_SLICE = 1_000;

interface IndexState {
  tracked: TrackedFiles;
  walker: RepositoryWalker;
  resolver: ImportResolver;
  model: RepositoryGraphModel;
  /** When the build's walk began (`Date.now()`): every directory was listed then, or later (`relistedAt`). */
  listedAt: number;
  /** Directories listed again by a refresh since, and when. */
  relistedAt: Map<string, number>;
}

/**
 * Builds the graph of a repository on disk: directories, files and their
 * symbols with `contains` edges, and `imports` edges to files and packages,
 * resolved as TypeScript and Node resolve them. Files are read and parsed on
 * every core. After the first build it keeps what it read, so that a change
 * re-reads only the changed files.
 */
@injectable()
export class RepositoryIndexer implements GraphSource {
  private state: IndexState | undefined;
  /** Made by the first full build. */
  private poolMade: FileReaderPool | undefined;
  /** The facts cache being written after a build, awaited by `close`. */
  private cacheWrite: Promise<void> | undefined;
  /** How many files' facts the last full build took from the cache. */
  private cachedFiles = 0;
  private readonly savedGraph: SavedGraph;
  /**
   * After a start that served the saved graph: its JSON, until the model behind it is made (`modelMade`), which
   * starts soon after the start (on the first refresh at the latest) and is compared with it.
   */
  private servedText: string | undefined;
  private modelMaking: Promise<void> | undefined;
  private modelTimer: NodeJS.Timeout | undefined;
  /** The model made after the saved graph was served differs from it (files changed in between): the next refresh builds anew. */
  private divergent = false;
  /** What the build awaits before it lists the files (the watch being set up). */
  private beforeListing: (() => Promise<void>) | undefined;
  servedKeptGraph = false;
  /** The model was made by a build that listed the files after `beforeListing`, and no check has run since. */
  private madeSinceWatch = false;

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
    @inject(FileFactsCache) private readonly factsCache: FileFactsCache,
    @inject(ForegroundRequests) private readonly foreground: ForegroundRequests = NO_FOREGROUND_REQUESTS,
  ) {
    this.savedGraph = new SavedGraph(config, factsCache);
  }

  /**
   * Builds the whole graph; or, when nothing it was made from changed, serves
   * the last build's graph as it was saved, and makes the model behind it
   * (what later refreshes work on) soon after, in the background.
   */
  async build(onProgress: (progress: BuildProgress) => void = () => {}, beforeListing?: () => Promise<void>): Promise<CodeGraph> {
    const started = performance.now();
    this.beforeListing = beforeListing;
    // Looking at every listed file and directory is the listing of a start that serves the saved graph.
    onProgress({ phase: 'listing', done: 0 });
    await this.cacheWrite;
    const held = await this.savedGraph.load();
    this.servedKeptGraph = held !== undefined;
    if (!held) {
      const graph = await this.buildAll(onProgress);
      this.madeSinceWatch = beforeListing !== undefined;
      return graph;
    }
    this.state = undefined;
    this.cachedFiles = held.fileCount;
    this.servedText = held.text;
    this.divergent = false;
    this.modelMaking = undefined;
    clearTimeout(this.modelTimer);
    // Not at once: a caller that only wanted the graph (`indexRepository`) closes first.
    this.modelTimer = setTimeout(() => void this.modelMade().catch(() => {}), 0);
    const { nodes, edges, skipped, unresolvedCount, unresolved } = held.parts;
    onProgress({ phase: 'resolving', done: held.fileCount, total: held.fileCount });
    const build: GraphBuildInfo = {
      repository: path.basename(this.config.repositoryRoot),
      indexedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      cachedFiles: held.fileCount,
      skipped,
      unresolvedCount,
      unresolved,
    };
    this.logger.info(
      { files: held.fileCount, nodes: nodes.length, edges: edges.length, durationMs: build.durationMs, savedGraph: true },
      'indexed repository: nothing changed since the last build, its graph served',
    );
    return { nodes, edges, build };
  }

  /**
   * Lists, reads (or takes from the facts cache) and resolves the whole repository. `behindServedGraph`: the model
   * behind a saved graph that is served already, made in the background: the graph is not saved again, and the walk
   * and the resolution give requests a turn every few milliseconds (on payload's 8,900 files they take about 2 s of
   * this thread, which had answered nothing meanwhile).
   */
  private async buildAll(onProgress: (progress: BuildProgress) => void = () => {}, behindServedGraph = false): Promise<CodeGraph> {
    const saveGraph = !behindServedGraph;
    const turn = behindServedGraph ? eventLoopTurns(TURN_MS, this.foreground) : undefined;
    // Behind a graph just served, the first clients go first.
    if (behindServedGraph) await this.foreground.whenQuiet(FIRST_CLIENTS_MS);
    const started = performance.now();
    const { ImportResolver, RepositoryGraphModel, RepositoryWalker, WorkspacePackages, discoverLanguageResolvers } = await buildModules();
    // The watch holds from here on: what changes later is reported, what changed before is listed now.
    await this.beforeListing?.();
    const startedAt = Date.now();
    const root = this.config.repositoryRoot;
    onProgress({ phase: 'listing', done: 0 });
    // The last build's model is let go now, not once the new one is in: holding both raised the server's peak by
    // about 150 MB at 160,000 files (a refresh before this build ends builds anew).
    this.state = undefined;
    const trackedRead = TrackedFiles.read(root);
    await this.cacheWrite;
    const tracked = await trackedRead;
    const walker = new RepositoryWalker(root, [this.config.dataDir], tracked);
    const listedAt = Date.now();
    const walk = walker.walkInSteps();
    const listing = walk.listing;
    // Each file's imports are resolved as soon as it is read (on this thread, while the reading threads go on),
    // once the model is made from the whole listing; files read before that wait for it.
    let model: RepositoryGraphModel | undefined;
    let cached: Array<FileFacts | undefined> = [];
    const early: FileFacts[] = [];
    const resolver = new ImportResolver(root);
    const makeModel = async (): Promise<RepositoryGraphModel> => {
      const listed = new Set(listing.files);
      const workspaces = await WorkspacePackages.discover(root, listing.directories, (file) => listed.has(file));
      const directories = new Set(listing.directories);
      const languageResolvers = discoverLanguageResolvers(root, {
        isFile: (file) => listed.has(file),
        isDirectory: (directory) => directory === '' || directories.has(directory),
        filePaths: () => listing.files.values(),
      });
      const made = new RepositoryGraphModel(root, resolver, workspaces, languageResolvers);
      made.startLoad(listing.directories, listing.files);
      for (const facts of cached) {
        if (facts) made.addRead(facts);
        await turn?.();
      }
      for (const facts of early.splice(0)) made.addRead(facts);
      return (model = made);
    };
    let modelMade: Promise<RepositoryGraphModel> | undefined;
    // With no cache to take facts from, the reading threads start at once and parse the sources listed so far
    // while the walk goes on (the model is made once it ends); with a cache, every file is looked up first.
    const cold = this.factsCache.load() === 0;
    let toRead: readonly string[] | GrowingFileList;
    if (cold) {
      this.pool.prestart();
      toRead = {
        files: listing.files,
        grow: () => {
          if (listFiles(walk, WALK_STEP_FILES)) return true;
          modelMade = makeModel();
          // Awaited below, after the reading; this keeps a failure from going unhandled meanwhile.
          modelMade.catch(() => {});
          return false;
        },
      };
      this.cachedFiles = 0;
    } else {
      while (walk.step()) await turn?.();
      cached = this.factsCache.lookup(listing.files);
      toRead = listing.files.filter((_, i) => cached[i] === undefined);
      this.cachedFiles = listing.files.length - toRead.length;
    }
    onProgress({ phase: 'reading', done: this.cachedFiles, total: listing.files.length });
    const reading = this.pool.readAll(
      toRead,
      (done) => onProgress({ phase: 'reading', done: this.cachedFiles + done, total: listing.files.length }),
      (facts) => (model ? model.addRead(facts) : early.push(facts)),
    );
    // Awaited below; this keeps a failure of the reading from going unhandled if the discovery throws first.
    reading.catch(() => {});
    if (!cold) modelMade = makeModel();
    const read = await reading;
    model = await modelMade!;
    const total = listing.files.length;
    const facts = this.cachedFiles === 0 ? read : mergeInOrder(cached, read);
    onProgress({ phase: 'resolving', done: 0, total });
    const { nodes, edges } = model.finishLoad(listing.directories, facts, listing.skipped);
    onProgress({ phase: 'resolving', done: total, total });
    this.state = { tracked, walker, resolver, model, listedAt, relistedAt: new Map() };
    this.pool.warmUp(sampleSources(listing.files));
    // Also in meta.skipped; said here too, since what they ignore is then indexed.
    for (const problem of walker.ignoreProblems()) this.logger.warn({ file: problem.path, reason: problem.reason }, 'an ignore rule was left out');
    const build = this.buildInfo(model, started);
    const saved = saveGraph
      ? {
          parts: { nodes: nodes.slice(), edges: edges.slice(), skipped: build.skipped, unresolvedCount: build.unresolvedCount, unresolved: build.unresolved },
          sources: { directories: listing.directories, facts, ruleFiles: walker.ruleFiles(), skipped: listing.skipped, tracked },
        }
      : undefined;
    if (read.length > 0 || saved) this.cacheWrite = this.writeCache(read.length > 0 ? facts : undefined, saved, startedAt);
    this.logger.info(
      {
        files: total,
        directories: listing.directories.length + 1,
        nodes: nodes.length,
        edges: edges.length,
        skipped: build.skipped.length,
        unresolved: build.unresolvedCount,
        durationMs: build.durationMs,
      },
      'indexed repository',
    );
    return { nodes, edges, build };
  }

  async refresh(changedPaths: readonly string[]): Promise<GraphRefresh> {
    const started = performance.now();
    const decodable = changedPaths.map(normalize).map(decodablePath);
    const changed = new Set(decodable.filter((p): p is string => p !== undefined && p !== ''));
    await this.modelMade().catch(() => (this.divergent = true));
    // A name at the root that is not UTF-8: its directory is the root, listed again by a build.
    if (this.divergent || !this.state || decodable.includes(undefined) || [...changed].some((p) => LISTING_FILES.test(p))) {
      this.divergent = false;
      return { kind: 'rebuilt', graph: await this.buildAll() };
    }
    const { tracked, walker, resolver, model, listedAt, relistedAt } = this.state;
    const { WorkspacePackages } = await buildModules();
    // What git tracks is listed whatever the ignore rules say; the watcher does not see git's index (under .git), so
    // files that came into it or left it since (`git add -f`, `git rm --cached`) are looked at with the changes.
    for (const file of await tracked.reread()) {
      changed.add(file);
      // An ignored directory listed for the tracked files below it alone goes with the last of them.
      for (let directory = path.posix.dirname(file); directory !== '.'; directory = path.posix.dirname(directory))
        if (model.hasDirectory(directory) && walker.isExcluded(directory, true)) changed.add(directory);
    }
    const paths = [...changed].sort();
    const root = this.config.repositoryRoot;

    const removedFiles = new Set<string>();
    const removedDirectories = new Set<string>();
    const addedDirectories: string[] = [];
    const toRead = new Set<string>();
    const skipped: SkippedEntry[] = [];
    const walked = new Set<string>();
    const walkNew = async (directory: string): Promise<void> => {
      if (walked.has(directory)) return;
      walked.add(directory);
      const sub = walker.walkFrom(directory);
      addedDirectories.push(...sub.directories.filter((d) => !model.hasDirectory(d)));
      for (const file of sub.files) toRead.add(file);
      skipped.push(...sub.skipped);
    };
    /** Directories listed again one level deep (their skipped entries below that stand). */
    const listedOneLevel = new Set<string>();
    /**
     * A directory the graph has, reported changed: an entry of it came, went or changed (the watcher reports the
     * directory with them; the check after a burst lists those its files are in), or it was removed and made
     * again, its contents made before the watcher looked. It is listed again, and what differs from the graph is
     * read or removed: the directory alone when it is older than its last listing (its subdirectories report their
     * own changes), else everything below it. A walk of the whole subtree of a top-level directory of 100,000 files
     * took 300 ms a change, the check after each burst included.
     */
    const walkKnown = async (directory: string): Promise<void> => {
      if (walked.has(directory)) return;
      walked.add(directory);
      const born = statsOf(fileSystemPath(root, directory), lstatSync)?.birthtimeMs ?? 0;
      // Made (again) since it was listed, or no birth time to tell: its contents were never seen.
      const remade = !(born > 0) || born >= (relistedAt.get(directory) ?? listedAt) - RACY_MS;
      const listedNow = Date.now();
      const sub = remade ? walker.walkFrom(directory) : walker.listOne(directory);
      if (!remade) listedOneLevel.add(directory);
      for (const listed of remade ? sub.directories : [directory]) relistedAt.set(listed, listedNow);
      const listedDirectories = new Set(sub.directories);
      const listedFiles = new Set(sub.files);
      const known = remade ? model.entriesBelow(directory) : model.entriesIn(directory);
      for (const p of stalePathsOf(sub, model, root, listedNow, known)) {
        if (listedDirectories.has(p)) {
          if (remade) addedDirectories.push(p);
          else await walkNew(p);
        } else if (listedFiles.has(p)) toRead.add(p);
        else if (model.hasFile(p)) removedFiles.add(p);
        else for (const entry of model.entriesBelow(p)) (entry.kind === 'file' ? removedFiles : removedDirectories).add(entry.path);
      }
      skipped.push(...sub.skipped);
    };
    /** The topmost directory above `p` that the model does not know, if any. */
    const newAncestor = (p: string): string | undefined => {
      const segments = p.split('/');
      for (let i = 1; i < segments.length; i++) {
        const ancestor = segments.slice(0, i).join('/');
        if (!model.hasDirectory(ancestor)) return ancestor;
      }
      return undefined;
    };

    // Synchronous stats, with a turn for requests every few milliseconds: a promise per stat cost a trip through
    // libuv's threads each, 0.4 s for the 3,000 paths of a branch switch. A live update does not wait for requests: it
    // is what the clients wait for.
    const turn = eventLoopTurns(TURN_MS);
    for (const p of paths) {
      await turn();
      const absolute = fileSystemPath(root, p);
      const link = statsOf(absolute, lstatSync);
      const target = link && (link.isSymbolicLink() ? linkTargetStats(root, absolute) : link);
      if (target === 'outside') {
        // Listed as the walker lists it: skipped, its target never looked at.
        skipped.push({ path: p, reason: OUTSIDE_REASON });
        if (model.hasFile(p)) removedFiles.add(p);
        continue;
      }
      if (!link || !target) {
        if (model.hasFile(p)) removedFiles.add(p);
        else if (model.hasDirectory(p)) for (const entry of model.entriesBelow(p)) (entry.kind === 'file' ? removedFiles : removedDirectories).add(entry.path);
        continue;
      }
      const isDirectory = target.isDirectory();
      if (isDirectory && link.isSymbolicLink()) continue;
      if (walker.isExcluded(p, isDirectory)) {
        if (model.hasFile(p)) removedFiles.add(p);
        else if (model.hasDirectory(p)) for (const entry of model.entriesBelow(p)) (entry.kind === 'file' ? removedFiles : removedDirectories).add(entry.path);
        continue;
      }
      const ancestor = newAncestor(p);
      if (ancestor !== undefined) await walkNew(ancestor);
      else if (isDirectory) {
        if (!model.hasDirectory(p)) await walkNew(p);
        else await walkKnown(p);
      } else if (target.isFile()) {
        toRead.add(p);
      }
    }

    const addsOrRemoves = removedFiles.size > 0 || [...toRead].some((file) => !model.hasFile(file));
    const resolutionChanged = paths.some((p) => RESOLUTION_FILES.test(p));
    if (addsOrRemoves || resolutionChanged) resolver.clearCache();
    if (resolutionChanged) {
      model.setWorkspaces(
        await WorkspacePackages.discover(root, [...model.directoryPaths(), ...addedDirectories], (file) => model.hasFile(file) || toRead.has(file)),
      );
    }
    const reresolve = new Set<string>();
    for (const file of removedFiles) for (const importer of model.importersOf(file)) reresolve.add(importer);
    if (resolutionChanged) {
      for (const file of model.filePaths()) reresolve.add(file);
    } else if (addsOrRemoves) {
      // A new file can satisfy an import that led nowhere, or to a package (through tsconfig paths); in Python, a new
      // or removed file can change where a resolved import leads (a submodule that comes before an attribute, an
      // `__init__.py` that makes a package).
      const stems = new Set([...[...toRead].filter((file) => !model.hasFile(file)), ...removedFiles].flatMap(stemsOf));
      for (const file of model.filesDependingOn(stems)) reresolve.add(file);
    }
    for (const file of removedFiles) reresolve.delete(file);

    const reading = [...toRead];
    const readingAt = performance.now();
    let facts = toRead.size > 300 ? await this.pool.readAll(reading) : await this.pool.readFew(reading);
    if (facts.length !== reading.length) facts = await this.pool.readInline(reading);
    const applyingAt = performance.now();
    const delta = model.update({
      addedDirectories,
      removedDirectories: [...removedDirectories].sort().reverse(),
      removedFiles: [...removedFiles],
      readFiles: facts,
      reresolve: [...reresolve],
      skipped: [...model.diagnostics().skipped.filter((entry) => !paths.some((p) => relisted(entry.path, p, listedOneLevel.has(p)))), ...skipped],
    });
    const build = this.buildInfo(model, started);
    this.logger.debug(
      {
        changed: paths.length,
        read: facts.length,
        reresolved: reresolve.size,
        durationMs: build.durationMs,
        listingMs: Math.round(readingAt - started),
        readingMs: Math.round(applyingAt - readingAt),
        applyingMs: Math.round(performance.now() - applyingAt),
      },
      'refreshed graph',
    );
    return { kind: 'delta', delta, build, readFiles: facts.length, reresolvedFiles: reresolve.size };
  }

  async stalePaths(): Promise<string[] | undefined> {
    await this.modelMade().catch(() => (this.divergent = true));
    // The graph served is not the model's: every file is to be looked at again (the refresh builds anew).
    if (this.divergent) return this.state ? [...this.state.model.filePaths()] : ['.'];
    if (!this.state) return undefined;
    // The model was made from a listing after the watch held (and equals what is served): nothing can be missed yet.
    if (this.madeSinceWatch) {
      this.madeSinceWatch = false;
      return [];
    }
    const { model } = this.state;
    const root = this.config.repositoryRoot;
    // This runs on the server's thread: a listing of 160,000 files took 0.7 s there. It gives requests a turn
    // every few milliseconds (it does not wait for them: live updates wait behind it). A walker of its own: ignore
    // rules, and git's index, as they are now.
    const turn = eventLoopTurns(TURN_MS);
    const { RepositoryWalker } = await buildModules();
    const walk = new RepositoryWalker(root, [this.config.dataDir], await TrackedFiles.read(root)).walkInSteps();
    while (walk.step()) await turn();
    const { listing } = walk;
    const now = Date.now();
    const stale: string[] = [];
    for (let i = 0; i < listing.files.length; i += STAT_SLICE) {
      stale.push(...changedFilesOf(listing.files.slice(i, i + STAT_SLICE), model, root, now));
      await turn();
    }
    const known = [
      ...model.directoryPaths().map((p) => ({ kind: 'directory' as const, path: p })),
      ...[...model.filePaths()].map((p) => ({ kind: 'file' as const, path: p })),
    ];
    return [...stale, ...unmatchedPathsOf(listing, model, known)];
  }

  async close(): Promise<void> {
    clearTimeout(this.modelTimer);
    this.servedText = undefined;
    try {
      await this.modelMaking?.catch(() => {});
      await this.cacheWrite;
    } finally {
      await this.poolMade?.close();
    }
  }

  /**
   * After a start that served the saved graph, makes the model behind it (once), by a build whose graph is
   * compared with the one served; a difference (a file changed since the check) makes `divergent` true. Resolves
   * at once otherwise.
   */
  private modelMade(): Promise<void> {
    clearTimeout(this.modelTimer);
    const served = this.servedText;
    if (served !== undefined) {
      this.servedText = undefined;
      this.modelMaking = this.buildAll(undefined, true).then((graph) => {
        if (savedText(graphParts(graph)) !== served) {
          this.divergent = true;
          this.logger.info('the graph made after a start from the saved graph differs from it: it is built anew');
        } else {
          this.madeSinceWatch = this.beforeListing !== undefined;
        }
      });
    }
    return this.modelMaking ?? Promise.resolve();
  }

  /** Writes the facts cache and the saved graph once the build's caller has its graph (after the current task). Never rejects. */
  private async writeCache(
    facts: readonly FileFacts[] | undefined,
    saved: { parts: GraphParts; sources: BuildSources } | undefined,
    startedAt: number,
  ): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    try {
      const failure = facts && (await this.factsCache.save(facts, startedAt));
      if (failure) this.logger.warn({ reason: failure }, 'could not write the file facts cache');
      const graphFailure = saved && (await this.savedGraph.save(saved.parts, saved.sources, startedAt));
      if (graphFailure) this.logger.warn({ reason: graphFailure }, 'could not save the graph');
    } catch (error) {
      this.logger.warn({ err: error }, 'could not write the file facts cache');
    }
  }

  /** The reading threads (the build modules are loaded first). */
  private get pool(): FileReaderPool {
    this.poolMade ??= new loadedBuildModules.FileReaderPool(this.config.repositoryRoot, this.config.index.maxFileBytes);
    return this.poolMade;
  }

  private buildInfo(model: RepositoryGraphModel, started: number): GraphBuildInfo {
    return {
      repository: path.basename(this.config.repositoryRoot),
      indexedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      cachedFiles: this.cachedFiles,
      ...model.diagnostics(),
    };
  }
}

function graphParts(graph: CodeGraph): GraphParts {
  const { skipped, unresolvedCount, unresolved } = graph.build;
  return { nodes: graph.nodes, edges: graph.edges, skipped, unresolvedCount, unresolved };
}

/** Walks on until `count` more files are listed; answers whether any directory is left to list. */
function listFiles(walk: { listing: RepositoryListing; step(): boolean }, count: number): boolean {
  const until = walk.listing.files.length + count;
  while (walk.listing.files.length < until) if (!walk.step()) return false;
  return true;
}

/**
 * A changed path as the watcher reports it is text: a name that is not UTF-8 came decoded, its bad bytes as
 * U+FFFD, and names no file. Its directory is looked at instead, where the walker reads names as bytes
 * (undefined: the root's).
 */
function decodablePath(p: string): string | undefined {
  const lossy = p.indexOf('\uFFFD');
  if (lossy === -1) return p;
  const slash = p.lastIndexOf('/', lossy);
  return slash === -1 ? undefined : p.slice(0, slash);
}

function normalize(p: string): string {
  return p.split(path.sep).join('/').replace(/^\.\//, '').replace(/\/+$/, '');
}

/** Names an import of a new file could end with: its stem, and its directory's name for an index file (or a Python package's `__init__`). */
function stemsOf(file: string): string[] {
  const segments = file.split('/');
  const stem = loadedBuildModules.specifierStem(segments.at(-1)!);
  return (stem === 'index' || stem === '__init__') && segments.length > 1 ? [stem, segments.at(-2)!] : [stem];
}

/** The first source of each parser's (a JavaScript or TypeScript file, a Python file), for the standby thread to parse ahead of live updates. */
function sampleSources(files: readonly string[]): string[] {
  const samples = new Map<unknown, string>();
  for (const file of files) {
    const analyzer = loadedBuildModules.sourceAnalyzerFor(file.slice(file.lastIndexOf('/') + 1));
    if (analyzer && !samples.has(analyzer)) samples.set(analyzer, file);
  }
  return [...samples.values()];
}

/**
 * What differs between a listing and the graph's `known` entries of the same
 * part of the repository: entries on one side only, and files changed since
 * they were read (or changed just before, which may have changed again
 * unseen).
 */
function stalePathsOf(
  listing: RepositoryListing,
  model: RepositoryGraphModel,
  root: string,
  now: number,
  known: ReadonlyArray<{ kind: 'file' | 'directory'; path: string }>,
): string[] {
  return [...changedFilesOf(listing.files, model, root, now), ...unmatchedPathsOf(listing, model, known)];
}

/** The listed files that are not in the graph, or changed since they were read (or just before). */
function changedFilesOf(files: readonly string[], model: RepositoryGraphModel, root: string, now: number): string[] {
  const changed: string[] = [];
  for (const file of files) {
    const signature = model.signatureOf(file);
    if (!signature || loadedBuildModules.isRacy(signature, now) || !loadedBuildModules.signatureHolds(fileSystemPath(root, file), signature))
      changed.push(file);
  }
  return changed;
}

/** Listed directories the graph lacks, and entries of the graph that are not listed. */
function unmatchedPathsOf(
  listing: RepositoryListing,
  model: RepositoryGraphModel,
  known: ReadonlyArray<{ kind: 'file' | 'directory'; path: string }>,
): string[] {
  const unmatched = listing.directories.filter((directory) => !model.hasDirectory(directory));
  const listed = new Set([...listing.files, ...listing.directories]);
  for (const entry of known) if (!listed.has(entry.path)) unmatched.push(entry.path);
  return unmatched;
}

/** A path's stats, or undefined when there is none to have (gone, a dangling link, a loop, no permission, a file for a parent). */
function statsOf(absolute: string | Buffer, statFunction: typeof lstatSync | typeof statSync): Stats | undefined {
  try {
    return statFunction(absolute);
  } catch {
    return undefined;
  }
}

/** Whether a skipped entry is one a listing of `p` (one level deep: `oneLevel`) says again. */
function relisted(entry: string, p: string, oneLevel: boolean): boolean {
  if (entry === p) return true;
  if (!entry.startsWith(`${p}/`)) return false;
  return !oneLevel || !entry.slice(p.length + 1).includes('/');
}

/** What a link leads to: its target's stats, `'outside'` when its real path leaves the repository, undefined when dangling or a loop. */
function linkTargetStats(root: string, absolute: string | Buffer): Stats | 'outside' | undefined {
  try {
    return statSync(realPathInside(root, absolute));
  } catch (error) {
    return error instanceof OutsideRepositoryError ? 'outside' : undefined;
  }
}

/** The cached facts, with the gaps filled by the facts read, in order. */
function mergeInOrder(cached: ReadonlyArray<FileFacts | undefined>, read: readonly FileFacts[]): FileFacts[] {
  const facts = new Array<FileFacts>(cached.length);
  let next = 0;
  // A loop, not `map`: `map` skips the holes of a sparse array.
  for (let i = 0; i < cached.length; i++) facts[i] = cached[i] ?? read[next++]!;
  return facts;
}
