import { open } from 'node:fs/promises';
import path from 'node:path';
import { isBinaryFile } from 'isbinaryfile';
import { inject, injectable } from 'tsyringe';
import type { GraphEdge, GraphNode, ImportReferenceKind } from '@strata/sdk';
import { StrataConfig } from '../config/strata-config.js';
import type { CodeGraph, SkippedEntry } from '../graph/code-graph.js';
import type { BuildProgress, GraphSource } from '../graph/graph-source.js';
import { ROOT_PATH, directoryId, edgeId, fileId } from '../graph/node-ids.js';
import { Logger } from '../logging/logger.js';
import { ImportResolver } from './import-resolver.js';
import { LanguageDetector } from './language-detector.js';
import { walkRepository } from './repository-walker.js';
import { analyzeSource, countLines, isParsedSource, type ImportReference } from './source-file-analyzer.js';

/** Files read at once. */
const READ_CONCURRENCY = 32;

/**
 * Builds the graph of a repository on disk: directories and files with
 * `contains` edges, and file-to-file `imports` edges resolved as TypeScript
 * and Node resolve them.
 */
@injectable()
export class RepositoryIndexer implements GraphSource {
  private readonly languages = new LanguageDetector();

  constructor(
    @inject(StrataConfig) private readonly config: StrataConfig,
    @inject(Logger) private readonly logger: Logger,
  ) {}

  async build(onProgress: (progress: BuildProgress) => void = () => {}): Promise<CodeGraph> {
    const started = performance.now();
    const root = this.config.repositoryRoot;
    onProgress({ phase: 'listing', done: 0 });
    const listing = await walkRepository(root, [this.config.dataDir]);
    const skipped: SkippedEntry[] = listing.skipped;

    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    const directories = new Map<string, GraphNode>();
    const rootNode: GraphNode = { id: directoryId(ROOT_PATH), kind: 'directory', name: path.basename(root), path: ROOT_PATH, files: 0 };
    directories.set(ROOT_PATH, rootNode);
    nodes.push(rootNode);
    for (const dir of listing.directories) {
      const parentPath = parentOf(dir);
      const node: GraphNode = { id: directoryId(dir), kind: 'directory', name: dir.slice(dir.lastIndexOf('/') + 1), path: dir, parent: directoryId(parentPath), files: 0 };
      directories.set(dir, node);
      nodes.push(node);
      edges.push(containsEdge(node.parent!, node.id));
    }

    const fileNodes = new Map<string, GraphNode>();
    const importsByFile = new Map<string, ImportReference[]>();
    let done = 0;
    const total = listing.files.length;
    await forEachConcurrently(listing.files, READ_CONCURRENCY, async (file) => {
      const { node, imports } = await this.readFile(file);
      fileNodes.set(file, node);
      if (imports.length > 0) importsByFile.set(file, imports);
      done++;
      if (done % 250 === 0) onProgress({ phase: 'reading', done, total });
    });
    onProgress({ phase: 'reading', done, total });
    for (const file of listing.files) {
      const node = fileNodes.get(file)!;
      nodes.push(node);
      edges.push(containsEdge(node.parent!, node.id));
      for (let dir: string | undefined = parentOf(file); dir !== undefined; dir = dir === ROOT_PATH ? undefined : parentOf(dir)) {
        directories.get(dir)!.files! += 1;
      }
    }

    for (const edge of this.resolveImports(listing.files, importsByFile, fileNodes, onProgress)) edges.push(edge);
    const durationMs = Math.round(performance.now() - started);
    this.logger.info({ files: total, directories: listing.directories.length + 1, edges: edges.length, skipped: skipped.length, durationMs }, 'indexed repository');
    return {
      nodes,
      edges,
      build: { repository: path.basename(root), indexedAt: new Date().toISOString(), durationMs, skipped },
    };
  }

  private async readFile(file: string): Promise<{ node: GraphNode; imports: ImportReference[] }> {
    const name = file.slice(file.lastIndexOf('/') + 1);
    const node: GraphNode = { id: fileId(file), kind: 'file', name, path: file, parent: directoryId(parentOf(file)) };
    const language = this.languages.detect(name);
    if (language) node.language = language;
    let handle;
    try {
      handle = await open(path.join(this.config.repositoryRoot, file), 'r');
      const { size } = await handle.stat();
      node.bytes = size;
      if (size > this.config.index.maxFileBytes) {
        node.error = `not read: ${size} bytes is over the limit of ${this.config.index.maxFileBytes} (index.maxFileBytes)`;
        return { node, imports: [] };
      }
      const buffer = await handle.readFile();
      if (buffer.length > 0 && (await isBinaryFile(buffer))) {
        node.binary = true;
        delete node.language;
        return { node, imports: [] };
      }
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
      } catch {
        text = buffer.toString('latin1');
        node.error = 'not valid UTF-8; read as Latin-1';
      }
      if (!isParsedSource(name)) {
        Object.assign(node, countLines(text, []));
        return { node, imports: [] };
      }
      const facts = analyzeSource(name, text);
      node.lines = facts.lines;
      node.loc = facts.loc;
      if (facts.error) node.error = facts.error;
      return { node, imports: facts.imports };
    } catch (error) {
      node.error = `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
      return { node, imports: [] };
    } finally {
      await handle?.close();
    }
  }

  /** Edges come out in the order of `files`, so the same repository always gives the same graph. */
  private resolveImports(files: readonly string[], importsByFile: Map<string, ImportReference[]>, fileNodes: Map<string, GraphNode>, onProgress: (progress: BuildProgress) => void): GraphEdge[] {
    const resolver = new ImportResolver();
    const root = this.config.repositoryRoot;
    const edges: GraphEdge[] = [];
    let done = 0;
    for (const file of files) {
      const imports = importsByFile.get(file);
      if (!imports) continue;
      const fromPath = path.join(root, file);
      const byTarget = new Map<string, { references: Set<ImportReferenceKind>; specifiers: string[] }>();
      for (const reference of imports) {
        const resolution = resolver.resolve(fromPath, reference.specifier);
        if (resolution.kind !== 'file') continue;
        const target = path.relative(root, resolution.path).split(path.sep).join('/');
        if (target.startsWith('..') || !fileNodes.has(target) || target === file) continue;
        let entry = byTarget.get(target);
        if (!entry) byTarget.set(target, (entry = { references: new Set(), specifiers: [] }));
        entry.references.add(reference.kind);
        if (!entry.specifiers.includes(reference.specifier)) entry.specifiers.push(reference.specifier);
      }
      const source = fileId(file);
      for (const [target, { references, specifiers }] of byTarget) {
        const targetId = fileId(target);
        edges.push({ id: edgeId('imports', source, targetId), source, target: targetId, kind: 'imports', references: [...references].sort(), specifiers });
      }
      if (++done % 500 === 0) onProgress({ phase: 'resolving', done, total: importsByFile.size });
    }
    onProgress({ phase: 'resolving', done, total: importsByFile.size });
    return edges;
  }
}

function parentOf(relativePath: string): string {
  const slash = relativePath.lastIndexOf('/');
  return slash === -1 ? ROOT_PATH : relativePath.slice(0, slash);
}

function containsEdge(source: string, target: string): GraphEdge {
  return { id: edgeId('contains', source, target), source, target, kind: 'contains' };
}

async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
