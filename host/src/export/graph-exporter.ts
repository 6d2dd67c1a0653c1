import path from 'node:path';
import { inject, injectable } from 'tsyringe';
import { GraphAnalysis } from '../analysis/graph-analysis.js';
import type { ReferenceKind } from '../analysis/import-graph.js';
import { eventLoopTurns } from '../concurrency/event-loop-turns.js';
import { StrataConfig } from '../config/strata-config.js';
import { StrataError } from '../errors/strata-error.js';
import { GraphStore } from '../graph/graph-store.js';
import { ServedOverlays } from '../overlays/served-overlays.js';
import { codeChartaText } from './codecharta-writer.js';
import { dotText } from './dot-writer.js';
import type { ExportGraph } from './export-graph.js';
import { EXPORT_NODE_KINDS, type ExportNodeKind, type ExportSelection, exportSelection } from './export-selection.js';
import { graphmlText } from './graphml-writer.js';
import { jsonExportText } from './json-export-writer.js';
import { checkMermaidSize, mermaidText } from './mermaid-writer.js';

/** The formats the graph is exported in, with the media type and file name extension of each. */
export const EXPORT_FORMATS = {
  graphml: { mediaType: 'application/graphml+xml; charset=utf-8', extension: 'graphml' },
  dot: { mediaType: 'text/vnd.graphviz; charset=utf-8', extension: 'dot' },
  mermaid: { mediaType: 'text/vnd.mermaid; charset=utf-8', extension: 'mmd' },
  json: { mediaType: 'application/json; charset=utf-8', extension: 'json' },
  'cc.json': { mediaType: 'application/json; charset=utf-8', extension: 'cc.json' },
} as const;

/** One of `EXPORT_FORMATS`' names. */
export type ExportFormat = keyof typeof EXPORT_FORMATS;

/** An export as the route and the CLI ask for it, before it is checked. */
export interface ExportRequest {
  format: ExportFormat;
  level?: 'file' | 'directory';
  /** Comma-separated node kinds. */
  include?: string;
  focus?: string;
  depth?: number;
  direction?: ExportSelection['direction'];
  excluded: ReferenceKind[];
}

/** A written export: its bytes in chunks, media type and file name. */
export interface ExportedFile {
  chunks: Buffer[];
  mediaType: string;
  filename: string;
}

/** Bytes gathered before a chunk is made (and the event loop may get a turn). */
const CHUNK_BYTES = 256 * 1024;
/** Longest the export keeps the thread before the event loop gets a turn. */
const TURN_MS = 10;

/** The node kinds exported when `include` is not given. */
function defaultInclude(level: 'file' | 'directory'): ExportNodeKind[] {
  return level === 'file' ? ['file', 'package'] : ['directory', 'package'];
}

/** Parses and checks `include` for a level, naming the parameter in a 400. */
export function includeOf(value: string | undefined, level: 'file' | 'directory'): ExportNodeKind[] {
  if (value === undefined || value === '') return defaultInclude(level);
  const kinds: ExportNodeKind[] = [];
  for (const raw of value.split(',')) {
    const kind = raw.trim() as ExportNodeKind;
    if (!EXPORT_NODE_KINDS.includes(kind))
      throw new StrataError('INVALID_PARAMETER', `query.include: "${kind}" is not a node kind of an export (one of ${EXPORT_NODE_KINDS.join(', ')})`);
    if (!kinds.includes(kind)) kinds.push(kind);
  }
  const main = level === 'file' ? 'file' : 'directory';
  if (!kinds.includes(main)) throw new StrataError('INVALID_PARAMETER', `query.include: must hold "${main}" at level=${level}`);
  if (level === 'directory' && (kinds.includes('file') || kinds.includes('symbol')))
    throw new StrataError(
      'INVALID_PARAMETER',
      'query.include: level=directory collapses files (and their symbols) into directories; include only directory and package',
    );
  return kinds;
}

/**
 * The graph, or the part around one node, written in an exchange format
 * (GraphML, DOT, Mermaid, JSON, CodeCharta's cc.json) from the current
 * revision. The writing gives the event loop a turn every few milliseconds,
 * so that a 100,000-file export never holds other requests up for long.
 */
@injectable()
export class GraphExporter {
  constructor(
    @inject(GraphStore) private readonly graph: GraphStore,
    @inject(GraphAnalysis) private readonly analysis: GraphAnalysis,
    @inject(ServedOverlays) private readonly overlays: Pick<ServedOverlays, 'stylesOf' | 'anyServed'>,
    @inject(StrataConfig) private readonly config: Pick<StrataConfig, 'repositoryRoot'>,
  ) {}

  async export(request: ExportRequest): Promise<ExportedFile> {
    const { format } = request;
    const level = request.level ?? 'file';
    if (format === 'cc.json' && level === 'directory')
      throw new StrataError(
        'INVALID_PARAMETER',
        'query.level: cc.json holds files in their folders (CodeCharta sums folders itself); leave level out or give file',
      );
    if (request.focus === undefined && (request.depth !== undefined || request.direction !== undefined))
      throw new StrataError('INVALID_PARAMETER', 'query.depth: `depth` and `direction` apply to the nodes around `focus`; give focus=<node id>');
    if (request.depth !== undefined && request.depth < 1) throw new StrataError('INVALID_PARAMETER', 'query.depth: must be at least 1');
    const selected = exportSelection(
      this.graph,
      this.analysis,
      {
        level,
        include: format === 'cc.json' ? ['file'] : includeOf(request.include, level),
        ...(request.focus !== undefined && { focus: request.focus }),
        depth: request.depth ?? 1,
        direction: request.direction ?? 'both',
        excluded: request.excluded,
      },
      (id) => this.overlayValues(id),
    );
    const turn = eventLoopTurns(TURN_MS);
    const chunks = await chunked(this.text(format, selected), turn);
    // Mermaid's text is ASCII (every other character an entity code): its bytes are its characters.
    if (format === 'mermaid')
      checkMermaidSize(
        selected.edges.length,
        chunks.reduce((sum, chunk) => sum + chunk.length, 0),
      );
    const { mediaType, extension } = EXPORT_FORMATS[format];
    return {
      chunks,
      mediaType,
      filename: `strata-${level === 'directory' ? 'directories' : 'files'}${request.focus !== undefined ? '-focus' : ''}.${extension}`,
    };
  }

  private text(format: ExportFormat, graph: ExportGraph): Iterable<string> {
    switch (format) {
      case 'graphml':
        return graphmlText(graph);
      case 'dot':
        return dotText(graph);
      case 'mermaid':
        return mermaidText(graph);
      case 'json':
        return jsonExportText(graph);
      case 'cc.json':
        return codeChartaText(graph, path.basename(this.config.repositoryRoot));
    }
  }

  /** The values of the overlays applied to a node, by `<plugin>/<overlay>`. */
  private overlayValues(id: string): Record<string, number> | undefined {
    if (!this.overlays.anyServed) return undefined;
    const styles = this.overlays.stylesOf(id);
    if (!styles) return undefined;
    const values: Record<string, number> = {};
    for (const [plugin, overlays] of Object.entries(styles))
      for (const [overlay, style] of Object.entries(overlays)) if (style.value !== undefined) values[`${plugin}/${overlay}`] = style.value;
    return values;
  }
}

/** The pieces of text as chunks of about `CHUNK_BYTES`, the event loop given a turn between them when the work has taken long. */
async function chunked(pieces: Iterable<string>, turn: () => Promise<void>): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    pending.push(piece);
    length += piece.length;
    if (length >= CHUNK_BYTES) {
      chunks.push(Buffer.from(pending.join('')));
      pending = [];
      length = 0;
      await turn();
    }
  }
  if (pending.length > 0) chunks.push(Buffer.from(pending.join('')));
  return chunks;
}
