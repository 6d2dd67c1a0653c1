import path from 'node:path';
import type { GraphEdge, GraphNode, ImportReferenceKind } from '@strata/sdk';
import { type CodeGraph, type SkippedEntry, UNRESOLVED_SAMPLE, type UnresolvedImport } from '../graph/code-graph.js';
import type { GraphDelta } from '../graph/graph-delta.js';
import { directoryId, edgeId, fileId, packageId, ROOT_PATH, symbolId } from '../graph/node-ids.js';
import type { FileFacts, FileSignature } from './file-reader.js';
import type { ImportResolver, ModuleSystem } from './import-resolver.js';
import type { ImportTarget, LanguageImportResolver, RepositoryFiles, ResolvedReference } from './language-import-resolver.js';
import type { WorkspacePackages } from './workspace-packages.js';

/** What one file's imports lead to. */
interface ResolvedImports {
  edges: GraphEdge[];
  /** Package names this file imports. */
  packages: string[];
  unresolved: UnresolvedImport[];
  /** Stems of the files whose coming or going may change what the imports lead to (keys of `dependentsByStem`). */
  stems: string[];
}

/**
 * The graph of a repository kept as per-file parts (the file node, its
 * symbols, its edges), so that a change to some files is turned into a
 * `GraphDelta` that touches only what those files contribute.
 */
export class RepositoryGraphModel {
  private readonly directories = new Set<string>();
  private readonly files = new Map<string, FileFacts>();
  private readonly imports = new Map<string, ResolvedImports>();
  private readonly packageUsers = new Map<string, { builtin: boolean; users: number }>();
  private readonly filesBelow = new Map<string, number>();
  /** Reverse index: file id of an import target → files importing it. */
  private readonly importers = new Map<string, Set<string>>();
  /**
   * Stem of a file whose coming or going may change where a file's imports lead → those files: for JavaScript and
   * TypeScript, the stems of specifiers that led nowhere or to a package; for a language resolver's files, the
   * stems it names (`LanguageImportResolver.dependencyStems`).
   */
  private readonly dependentsByStem = new Map<string, Set<string>>();
  private skipped: SkippedEntry[] = [];
  /** The root with a separator after it: what paths inside the repository start with. */
  private readonly rootPrefix: string;
  /** While a full build's files arrive (`startLoad` to `finishLoad`): every file listed, read or not yet. */
  private listed: ReadonlySet<string> | undefined;

  /** The repository as this model knows it, for the language resolvers. */
  private readonly repositoryFiles: RepositoryFiles = {
    isFile: (file) => this.isFile(file),
    isDirectory: (directory) => directory === '' || this.hasDirectory(directory),
    filePaths: () => (this.listed ?? this.files).keys(),
  };

  constructor(
    private readonly root: string,
    private readonly resolver: ImportResolver,
    private workspaces: WorkspacePackages,
    /** The resolvers of other languages' imports (JavaScript and TypeScript are `resolver`'s and the workspaces'). */
    private readonly languageResolvers: readonly LanguageImportResolver[] = [],
  ) {
    this.rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
  }

  /** Replaces the workspace packages (after a package.json or pnpm-workspace.yaml changed). */
  setWorkspaces(workspaces: WorkspacePackages): void {
    this.workspaces = workspaces;
  }

  get fileCount(): number {
    return this.files.size;
  }

  hasFile(file: string): boolean {
    return this.files.has(file);
  }

  hasDirectory(directory: string): boolean {
    return directory === ROOT_PATH || this.directories.has(directory);
  }

  /** Every directory path but the root's. */
  directoryPaths(): string[] {
    return [...this.directories];
  }

  /** What told, when a file was read, that it is unchanged (undefined for a file not in the graph or not opened). */
  signatureOf(file: string): FileSignature | undefined {
    return this.files.get(file)?.signature;
  }

  /** Every file path, in no particular order. */
  filePaths(): IterableIterator<string> {
    return this.files.keys();
  }

  /** Files that import `file` (by an edge to it). */
  importersOf(file: string): string[] {
    return [...(this.importers.get(fileId(file)) ?? [])];
  }

  /**
   * Files whose imports may lead elsewhere once files of these stems came or
   * went: JavaScript and TypeScript files with an import that resolved to
   * nothing or to a package and whose specifier ends with one of `stems`
   * (`./util/x.js` ends with `x`); files of other languages as their
   * resolvers say (a Python file importing `a.x`, or `x` from `a`).
   */
  filesDependingOn(stems: ReadonlySet<string>): string[] {
    const dependents = new Set<string>();
    for (const stem of stems) for (const file of this.dependentsByStem.get(stem) ?? []) dependents.add(file);
    return [...dependents];
  }

  /** The directory and the files and directories directly in it. */
  entriesIn(directory: string): Array<{ kind: 'file' | 'directory'; path: string }> {
    const prefix = directory === ROOT_PATH ? '' : `${directory}/`;
    const directlyIn = (p: string): boolean => p.startsWith(prefix) && p.indexOf('/', prefix.length) === -1;
    const entries: Array<{ kind: 'file' | 'directory'; path: string }> = directory === ROOT_PATH ? [] : [{ kind: 'directory', path: directory }];
    for (const d of this.directories) if (d !== directory && directlyIn(d)) entries.push({ kind: 'directory', path: d });
    for (const f of this.files.keys()) if (directlyIn(f)) entries.push({ kind: 'file', path: f });
    return entries;
  }

  /** The files and directories at or below `directory`. */
  entriesBelow(directory: string): Array<{ kind: 'file' | 'directory'; path: string }> {
    const prefix = `${directory}/`;
    const entries: Array<{ kind: 'file' | 'directory'; path: string }> = [];
    for (const d of this.directories) if (d === directory || d.startsWith(prefix)) entries.push({ kind: 'directory', path: d });
    for (const f of this.files.keys()) if (f.startsWith(prefix)) entries.push({ kind: 'file', path: f });
    return entries;
  }

  /**
   * Starts a full build whose files' facts come one by one (`addRead`, in
   * any order, as they are read), so that imports are resolved while other
   * files are still being read; `finishLoad` then makes the graph.
   */
  startLoad(directories: readonly string[], files: readonly string[]): void {
    for (const directory of directories) this.directories.add(directory);
    this.listed = new Set(files);
  }

  /** Takes the facts of one listed file and resolves its imports (against the whole listing). */
  addRead(facts: FileFacts): void {
    this.addFile(facts);
    this.resolveFile(facts.path);
  }

  /** The whole graph, once every listed file was added (`directories` and `facts` in the listing's order). */
  finishLoad(directories: readonly string[], facts: readonly FileFacts[], skipped: SkippedEntry[]): Pick<CodeGraph, 'nodes' | 'edges'> {
    this.listed = undefined;
    // Files came, and were resolved, in the order they were read: put the per-file maps back in the listing's
    // order, so that the graph (package nodes), the build info (unresolved sample) and later refreshes
    // (which go through the files in this order) do not depend on timing.
    const packageOrder = new Map<string, { builtin: boolean; users: number }>();
    for (const file of facts) {
      this.files.delete(file.path);
      this.files.set(file.path, file);
      const resolved = this.imports.get(file.path)!;
      this.imports.delete(file.path);
      this.imports.set(file.path, resolved);
      for (const name of resolved.packages) if (!packageOrder.has(name)) packageOrder.set(name, this.packageUsers.get(name)!);
    }
    this.packageUsers.clear();
    for (const [name, entry] of packageOrder) this.packageUsers.set(name, entry);
    this.skipped = skipped;
    const nodes: GraphNode[] = [this.directoryNode(ROOT_PATH)];
    const edges: GraphEdge[] = [];
    for (const directory of directories) {
      nodes.push(this.directoryNode(directory));
      edges.push(containsEdge(directoryId(parentOf(directory)), directoryId(directory)));
    }
    for (const file of facts) {
      const part = this.filePart(file);
      for (const node of part.nodes) nodes.push(node);
      for (const edge of part.edges) edges.push(edge);
    }
    for (const file of facts) for (const edge of this.imports.get(file.path)!.edges) edges.push(edge);
    for (const [name, { builtin }] of this.packageUsers) nodes.push(packageNode(name, builtin));
    return { nodes, edges };
  }

  /** What the build info reports about skips and unresolved imports. */
  diagnostics(): { skipped: SkippedEntry[]; unresolvedCount: number; unresolved: UnresolvedImport[] } {
    const unresolved: UnresolvedImport[] = [];
    let unresolvedCount = 0;
    for (const resolved of this.imports.values()) {
      unresolvedCount += resolved.unresolved.length;
      for (const entry of resolved.unresolved) if (unresolved.length < UNRESOLVED_SAMPLE) unresolved.push(entry);
    }
    return { skipped: this.skipped, unresolvedCount, unresolved };
  }

  /**
   * Applies a change of the repository: directories and files that now exist
   * or are gone, files whose content changed (with their new facts), and
   * files whose imports must be resolved again. Returns what changed in graph terms.
   */
  update(change: {
    addedDirectories: readonly string[];
    removedDirectories: readonly string[];
    removedFiles: readonly string[];
    readFiles: readonly FileFacts[];
    reresolve: readonly string[];
    skipped?: SkippedEntry[];
  }): GraphDelta {
    const delta: GraphDelta = { removedNodes: [], upsertedNodes: [], removedEdges: [], upsertedEdges: [] };
    const touchedDirectories = new Set<string>();
    const packagesBefore = new Set(this.packageUsers.keys());

    for (const file of change.removedFiles) {
      const facts = this.files.get(file);
      if (!facts) continue;
      const part = this.filePart(facts);
      for (const node of part.nodes) delta.removedNodes.push(node.id);
      for (const edge of part.edges) delta.removedEdges.push(edge.id);
      for (const edge of this.imports.get(file)?.edges ?? []) delta.removedEdges.push(edge.id);
      this.forgetImports(file);
      this.removeFile(file, touchedDirectories);
    }
    for (const directory of change.removedDirectories) {
      if (!this.directories.delete(directory)) continue;
      delta.removedNodes.push(directoryId(directory));
      delta.removedEdges.push(edgeId('contains', directoryId(parentOf(directory)), directoryId(directory)));
      touchedDirectories.delete(directory);
    }
    for (const directory of change.addedDirectories) {
      if (this.directories.has(directory)) continue;
      this.directories.add(directory);
      touchedDirectories.add(directory);
      delta.upsertedEdges.push(containsEdge(directoryId(parentOf(directory)), directoryId(directory)));
    }
    for (const facts of change.readFiles) {
      const previous = this.files.get(facts.path);
      if (previous) {
        // Symbols that disappeared go; the rest are upserted below.
        const before = this.filePart(previous);
        const after = new Set(this.filePart(facts).nodes.map((node) => node.id));
        for (const node of before.nodes)
          if (!after.has(node.id)) {
            delta.removedNodes.push(node.id);
            delta.removedEdges.push(edgeId('contains', node.parent!, node.id));
          }
        this.files.set(facts.path, facts);
      } else {
        this.addFile(facts, touchedDirectories);
      }
      const part = this.filePart(facts);
      for (const node of part.nodes) delta.upsertedNodes.push(node);
      for (const edge of part.edges) delta.upsertedEdges.push(edge);
    }
    const toResolve = new Set([...change.readFiles.map((facts) => facts.path), ...change.reresolve]);
    // Now that the files and directories are as they are on disk, the other languages' resolvers look at what changed.
    const changedPaths = [...change.removedFiles, ...change.readFiles.map((facts) => facts.path), ...change.addedDirectories, ...change.removedDirectories];
    for (const languageResolver of this.languageResolvers) {
      const again = languageResolver.afterChange(changedPaths, this.repositoryFiles);
      if (again !== 'all') for (const file of again) toResolve.add(file);
      else for (const file of this.files.keys()) if (languageResolver.resolves(file)) toResolve.add(file);
    }
    for (const file of toResolve) {
      if (!this.files.has(file)) continue;
      const before = new Set((this.imports.get(file)?.edges ?? []).map((edge) => edge.id));
      this.forgetImports(file);
      this.resolveFile(file);
      for (const edge of this.imports.get(file)!.edges) {
        before.delete(edge.id);
        delta.upsertedEdges.push(edge);
      }
      for (const id of before) delta.removedEdges.push(id);
    }
    for (const directory of touchedDirectories) if (this.hasDirectory(directory)) delta.upsertedNodes.push(this.directoryNode(directory));
    for (const name of packagesBefore) if (!this.packageUsers.has(name)) delta.removedNodes.push(packageId(name));
    for (const [name, { builtin }] of this.packageUsers) if (!packagesBefore.has(name)) delta.upsertedNodes.push(packageNode(name, builtin));
    if (change.skipped) this.skipped = change.skipped;
    return delta;
  }

  private addFile(facts: FileFacts, touched?: Set<string>): void {
    this.files.set(facts.path, facts);
    for (let directory = parentOf(facts.path); ; directory = parentOf(directory)) {
      this.filesBelow.set(directory, (this.filesBelow.get(directory) ?? 0) + 1);
      touched?.add(directory);
      if (directory === ROOT_PATH) break;
    }
  }

  private removeFile(file: string, touched: Set<string>): void {
    this.files.delete(file);
    for (let directory = parentOf(file); ; directory = parentOf(directory)) {
      const count = (this.filesBelow.get(directory) ?? 1) - 1;
      if (count === 0) this.filesBelow.delete(directory);
      else this.filesBelow.set(directory, count);
      touched.add(directory);
      if (directory === ROOT_PATH) break;
    }
  }

  private directoryNode(directory: string): GraphNode {
    const files = this.filesBelow.get(directory) ?? 0;
    if (directory === ROOT_PATH) return { id: directoryId(ROOT_PATH), kind: 'directory', name: path.basename(this.root), path: ROOT_PATH, files };
    return {
      id: directoryId(directory),
      kind: 'directory',
      name: directory.slice(directory.lastIndexOf('/') + 1),
      path: directory,
      parent: directoryId(parentOf(directory)),
      files,
    };
  }

  /** The file node, its symbol nodes, and the contains edges to them. */
  private filePart(facts: FileFacts): { nodes: GraphNode[]; edges: GraphEdge[] } {
    const { path: file, imports: _imports, symbols, signature: _signature, ...figures } = facts;
    const id = fileId(file);
    const parent = directoryId(parentOf(file));
    const nodes: GraphNode[] = [{ id, kind: 'file', name: file.slice(file.lastIndexOf('/') + 1), path: file, parent, ...figures }];
    const edges: GraphEdge[] = [containsEdge(parent, id)];
    const seen = new Set<string>();
    for (const symbol of symbols) {
      const symbolNodeId = symbolId(file, symbol.name, symbol.container);
      if (seen.has(symbolNodeId)) continue;
      seen.add(symbolNodeId);
      const container = symbol.container === undefined ? id : symbolId(file, symbol.container);
      nodes.push({
        id: symbolNodeId,
        kind: symbol.kind,
        name: symbol.name,
        path: file,
        parent: container,
        lines: symbol.endLine - symbol.startLine + 1,
        startLine: symbol.startLine,
        endLine: symbol.endLine,
        exported: symbol.exported,
        ...(symbol.complexity ?? {}),
      });
      edges.push(containsEdge(container, symbolNodeId));
    }
    return { nodes, edges };
  }

  private resolveFile(file: string): void {
    const facts = this.files.get(file)!;
    if (facts.imports.length === 0) {
      this.imports.set(file, { edges: [], packages: [], unresolved: [], stems: [] });
      return;
    }
    const from = path.join(this.root, file);
    const source = fileId(file);
    const languageResolver = this.languageResolvers.find((candidate) => candidate.resolves(file));
    const byTarget = new Map<string, { references: Set<ImportReferenceKind>; specifiers: string[] }>();
    const packages = new Set<string>();
    const unresolved: UnresolvedImport[] = [];
    const stems = new Set<string>();
    for (const reference of facts.imports) {
      let resolved: ResolvedReference[];
      if (languageResolver) {
        resolved = languageResolver.resolve(file, reference, this.repositoryFiles);
        for (const stem of languageResolver.dependencyStems(file, reference)) stems.add(stem);
      } else {
        const target = this.locate(file, from, reference.specifier, reference.kind === 'require' ? 'require' : 'import');
        resolved = [{ specifier: reference.specifier, target }];
        // A file added later may satisfy an import that led nowhere, or to a package (through tsconfig paths).
        if (target.kind !== 'file') stems.add(specifierStem(reference.specifier));
      }
      for (const { specifier, target } of resolved) {
        let targetId: string;
        if (target.kind === 'unresolved') {
          unresolved.push({ file, specifier, reason: target.reason });
          continue;
        } else if (target.kind === 'no-file') {
          continue;
        } else if (target.kind === 'file') {
          if (target.path === file) continue;
          targetId = fileId(target.path);
        } else if (target.kind === 'directory') {
          targetId = directoryId(target.path === '' ? ROOT_PATH : target.path);
        } else {
          targetId = packageId(target.name);
          if (!packages.has(target.name)) {
            packages.add(target.name);
            const entry = this.packageUsers.get(target.name);
            if (entry) entry.users++;
            else this.packageUsers.set(target.name, { builtin: target.builtin, users: 1 });
          }
        }
        let entry = byTarget.get(targetId);
        if (!entry) byTarget.set(targetId, (entry = { references: new Set(), specifiers: [] }));
        entry.references.add(reference.kind);
        if (!entry.specifiers.includes(specifier)) entry.specifiers.push(specifier);
      }
    }
    const edges: GraphEdge[] = [];
    for (const [target, { references, specifiers }] of byTarget) {
      edges.push({ id: edgeId('imports', source, target), source, target, kind: 'imports', references: [...references].sort(), specifiers });
      if (target.startsWith('file:')) addTo(this.importers, target, file);
    }
    for (const stem of stems) addTo(this.dependentsByStem, stem, file);
    this.imports.set(file, { edges, packages: [...packages], unresolved, stems: [...stems] });
  }

  private forgetImports(file: string): void {
    const resolved = this.imports.get(file);
    if (!resolved) return;
    for (const edge of resolved.edges) if (edge.target.startsWith('file:')) removeFrom(this.importers, edge.target, file);
    for (const stem of resolved.stems) removeFrom(this.dependentsByStem, stem, file);
    for (const name of resolved.packages) {
      const entry = this.packageUsers.get(name)!;
      if (--entry.users === 0) this.packageUsers.delete(name);
    }
    this.imports.delete(file);
  }

  private readonly isFileBound = (file: string): boolean => this.isFile(file);

  /** Whether a repository path is a file of the graph (during a full build: of the listing). */
  private isFile(file: string): boolean {
    return this.listed ? this.listed.has(file) : this.files.has(file);
  }

  /** A resolved absolute path as a repository path (`../` first when outside it). */
  private relativePath(absolute: string): string {
    const relative = absolute.startsWith(this.rootPrefix) ? absolute.slice(this.rootPrefix.length) : path.relative(this.root, absolute);
    return path.sep === '/' ? relative : relative.split(path.sep).join('/');
  }

  /** Where `specifier`, loaded with `system` from `file` (a repository path; `from` is its absolute path), leads. */
  private locate(file: string, from: string, specifier: string, system: ModuleSystem): ImportTarget {
    const bareName = packageNameOf(specifier);
    const workspace = bareName && this.workspaces.find(file, bareName, this.isFileBound);
    if (workspace) {
      // As in TypeScript, tsconfig `paths` (and `baseUrl`) come before the package and what its `exports` say.
      const mapped = this.resolver.resolveMapped(from, specifier);
      const target = mapped === undefined ? undefined : this.fileTarget(mapped, bareName);
      if (target?.kind === 'file') return target;
      const found = this.workspaces.resolve(workspace, specifier.slice(bareName.length + 1), system, this.isFileBound);
      return 'file' in found ? { kind: 'file', path: found.file } : { kind: 'unresolved', reason: found.reason };
    }
    const resolution = this.resolver.resolve(from, specifier, system);
    if (resolution.kind === 'builtin') return { kind: 'package', name: resolution.name, builtin: true };
    if (resolution.kind === 'file') return this.fileTarget(resolution.path, bareName);
    if (bareName) return { kind: 'package', name: bareName, builtin: false };
    return { kind: 'unresolved', reason: resolution.reason };
  }

  /** What a resolved file (an absolute path) is in graph terms: a file of the graph, a package (in `node_modules`, or outside the repository), or nothing indexed. */
  private fileTarget(absolute: string, bareName: string | undefined): ImportTarget {
    const relative = this.relativePath(absolute);
    const outside = relative.startsWith('../') || path.isAbsolute(relative);
    const segments = relative.split('/');
    const modulesAt = segments.lastIndexOf('node_modules');
    if (modulesAt !== -1 || outside) {
      const name = bareName ?? (modulesAt !== -1 ? packageNameFromSegments(segments.slice(modulesAt + 1)) : undefined);
      return name ? { kind: 'package', name, builtin: false } : { kind: 'unresolved', reason: `resolves outside the repository (${relative})` };
    }
    if (this.isFile(relative)) return { kind: 'file', path: relative };
    // `./worker.ts?worker`, `./style.css?raw`, `./x.js#frag`: the resolver keeps the query on the path.
    const bare = relative.replace(/[?#].*$/, '');
    if (bare !== relative && this.isFile(bare)) return { kind: 'file', path: bare };
    return { kind: 'unresolved', reason: `resolves to ${relative}, which is not indexed (ignored or skipped)` };
  }
}

/** The last segment of a specifier or file name without its extensions: `./a/b.js` and `b.d.ts` give `b`. */
export function specifierStem(specifier: string): string {
  const last = specifier.slice(specifier.lastIndexOf('/') + 1);
  const dot = last.indexOf('.', 1);
  return dot === -1 ? last : last.slice(0, dot);
}

/** The package a bare specifier names (`@scope/name/sub` is `@scope/name`), or undefined for paths, `#imports` and URLs. */
export function packageNameOf(specifier: string): string | undefined {
  if (/^[./#]|^[a-z][a-z0-9+.-]*:/i.test(specifier)) return undefined;
  return packageNameFromSegments(specifier.split('/'));
}

const PACKAGE_NAME = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/i;

function packageNameFromSegments(segments: string[]): string | undefined {
  const name = segments[0]?.startsWith('@') ? segments.slice(0, 2).join('/') : segments[0];
  return name && PACKAGE_NAME.test(name) ? name : undefined;
}

function addTo(index: Map<string, Set<string>>, key: string, value: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(value);
}

function removeFrom(index: Map<string, Set<string>>, key: string, value: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(value);
  if (set.size === 0) index.delete(key);
}

function packageNode(name: string, builtin: boolean): GraphNode {
  return builtin ? { id: packageId(name), kind: 'package', name, path: name, builtin: true } : { id: packageId(name), kind: 'package', name, path: name };
}

function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash === -1 ? ROOT_PATH : relativePath.slice(0, slash);
}

function containsEdge(source: string, target: string): GraphEdge {
  return { id: edgeId('contains', source, target), source, target, kind: 'contains' };
}
