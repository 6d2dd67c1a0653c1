// The node panel: GET /api/graph/nodes/{id} for the selected node: what it
// is, its symbols, its edges (each a link to the node at the other end),
// every overlay's value for it, and a link that opens it in an editor.
import { type ApiClient, nodePath } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import type { ApiEdge, ApiNode } from './graph-data.js';
import { isSymbol } from './graph-data.js';
import type { GraphModel } from './graph-model.js';
import { safeColor } from './palette.js';
import { ReachSection, type ShownReach } from './reach-section.js';

interface NodeDetails extends ApiNode {
  incoming: ApiEdge[];
  outgoing: ApiEdge[];
}

export interface NodePanelEvents {
  select(id: string): void;
  close(): void;
  expand(id: string): void;
  toggleDirectory(id: string): void;
  focus(id: string): void;
  isExpanded(id: string): boolean;
  isCollapsed(id: string): boolean;
  overlayName(pluginId: string, overlayId: string): string;
  /** Draw what depends on the node (or what it depends on) on the map; undefined: stop. */
  showReach(reach: ShownReach | undefined): void;
  error(message: string): void;
}

const EDITOR_KEY = 'strata.editorUrl';
/** `{repository}`, `{path}` and `{line}` are filled in. */
export const DEFAULT_EDITOR_URL = 'vscode://file/{repository}/{path}:{line}';
const SHOWN_EDGES = 200;

export class NodePanel {
  readonly root = element('aside', { class: 'panel node-panel', 'aria-label': 'Node', hidden: true });
  private current: string | undefined;
  private request = 0;
  private readonly reach: ReachSection;

  constructor(
    private readonly api: ApiClient,
    private readonly model: GraphModel,
    private readonly events: NodePanelEvents,
  ) {
    this.reach = new ReachSection(api, { show: (reach) => events.showReach(reach), error: (message) => events.error(message) });
  }

  /** Whether a reach is drawn (Escape clears it first). */
  get showsReach(): boolean {
    return this.reach.active;
  }

  clearReach(): void {
    this.reach.clear();
  }

  get shown(): string | undefined {
    return this.current;
  }

  async show(id: string | undefined): Promise<void> {
    this.current = id;
    const ticket = ++this.request;
    if (id === undefined) {
      this.reach.clear();
      this.root.hidden = true;
      replaceChildren(this.root);
      return;
    }
    this.root.hidden = false;
    let details: NodeDetails;
    try {
      details = (await this.api.get<{ data: NodeDetails }>(nodePath(id))).data;
    } catch (error) {
      if (ticket !== this.request) return;
      replaceChildren(
        this.root,
        this.header(this.model.nodes.get(id)?.name ?? id),
        element('p', { class: 'plugin-error', role: 'alert' }, (error as Error).message),
      );
      return;
    }
    if (ticket !== this.request) return;
    this.render(details);
  }

  /** Shows the node again (after the graph or its overlays changed). */
  refresh(): Promise<void> {
    return this.show(this.current);
  }

  private header(title: string): HTMLElement {
    return element(
      'div',
      { class: 'panel-head' },
      element('h2', { id: 'node-title' }, title),
      element('button', { type: 'button', class: 'icon', 'aria-label': 'Close the node panel', onclick: () => this.events.close() }, '×'),
    );
  }

  private render(node: NodeDetails): void {
    const facts: Array<[string, string | number | undefined]> = [
      ['Kind', node.kind + (node.builtin ? ' (built-in)' : '')],
      ['Path', node.path],
      ['Language', node.language],
      ['Lines', node.lines],
      ['Lines of code', node.loc],
      ['Bytes', node.bytes],
      ['Files below', node.files],
      ['Cyclomatic complexity', node.cyclomatic],
      ['Cognitive complexity', node.cognitive],
      ['Lines in file', node.startLine !== undefined ? `${node.startLine}–${node.endLine ?? node.startLine}` : undefined],
      ['Exported', node.exported === undefined ? undefined : node.exported ? 'yes' : 'no'],
      ['Problem', node.error],
    ];
    const symbols = node.outgoing.filter((edge) => edge.kind === 'contains' && isSymbol(this.model.nodes.get(edge.target) ?? { kind: '' }));
    const others = (edges: ApiEdge[], end: 'source' | 'target') => edges.filter((edge) => !symbols.includes(edge)).map((edge) => ({ edge, id: edge[end] }));
    replaceChildren(
      this.root,
      this.header(node.name),
      element(
        'dl',
        { class: 'facts' },
        ...facts
          .filter(([, value]) => value !== undefined && value !== '')
          .flatMap(([label, value]) => [element('dt', {}, label), element('dd', {}, String(value))]),
      ),
      this.actions(node),
      this.reach.for(node.id),
      this.overlayValues(node),
      symbols.length > 0 &&
        this.edgeList(
          'Symbols',
          symbols.map((edge) => ({ edge, id: edge.target })),
        ),
      this.edgeList(`Outgoing (${node.outgoing.length - symbols.length})`, others(node.outgoing, 'target')),
      this.edgeList(`Incoming (${node.incoming.length})`, others(node.incoming, 'source')),
    );
  }

  private actions(node: NodeDetails): HTMLElement {
    const editorUrl = this.editorUrl(node);
    return element(
      'div',
      { class: 'actions' },
      editorUrl && element('a', { href: editorUrl, class: 'button' }, 'Open in editor'),
      node.kind === 'file' &&
        element(
          'button',
          {
            type: 'button',
            onclick: () => {
              this.events.expand(node.id);
              void this.refresh();
            },
          },
          this.events.isExpanded(node.id) ? 'Hide symbols' : 'Show symbols',
        ),
      node.kind === 'directory' &&
        element(
          'button',
          {
            type: 'button',
            onclick: () => {
              this.events.toggleDirectory(node.id);
              void this.refresh();
            },
          },
          this.events.isCollapsed(node.id) ? 'Expand directory' : 'Collapse directory',
        ),
      node.kind === 'directory' && element('button', { type: 'button', onclick: () => this.events.focus(node.id) }, 'Focus on this directory'),
      node.parent !== undefined && element('button', { type: 'button', onclick: () => this.events.select(node.parent!) }, 'Parent'),
      element(
        'details',
        { class: 'editor-setting' },
        element('summary', {}, 'Editor link'),
        element('label', { for: 'editor-url' }, 'URL template ({repository}, {path}, {line})'),
        element('input', {
          id: 'editor-url',
          type: 'text',
          value: localStorage.getItem(EDITOR_KEY) ?? DEFAULT_EDITOR_URL,
          onchange: (event) => {
            localStorage.setItem(EDITOR_KEY, (event.target as HTMLInputElement).value);
            void this.refresh();
          },
        }),
      ),
    );
  }

  private editorUrl(node: NodeDetails): string | undefined {
    // Only a server on this machine says where the repository is; elsewhere there is no file to open.
    if (node.kind === 'package' || !this.model.repositoryPath) return undefined;
    const template = localStorage.getItem(EDITOR_KEY) ?? DEFAULT_EDITOR_URL;
    const repository = this.model.repositoryPath.replace(/\\/g, '/').replace(/\/$/, '');
    return template
      .replace('{repository}', encodeURI(repository).replace(/^\//, ''))
      .replace('{path}', encodeURI(node.path === '.' ? '' : node.path))
      .replace('{line}', String(node.startLine ?? 1));
  }

  private overlayValues(node: NodeDetails): HTMLElement | false {
    const rows = Object.entries(node.overlays ?? {}).flatMap(([pluginId, overlays]) =>
      Object.entries(overlays).map(([overlayId, style]) => {
        const parts = [
          style.value !== undefined ? figure(style.value) : undefined,
          style.badge !== undefined ? `badge ${style.badge}` : undefined,
          style.size !== undefined ? `size ×${figure(style.size)}` : undefined,
        ].filter(Boolean);
        return element(
          'li',
          { 'data-overlay': `${pluginId}/${overlayId}` },
          style.color && element('span', { class: 'swatch', style: `background:${safeColor(style.color)}` }),
          element('span', { class: 'overlay-name' }, this.events.overlayName(pluginId, overlayId)),
          ': ',
          parts.join(', ') || '—',
        );
      }),
    );
    if (rows.length === 0) return false;
    return element('section', { class: 'overlay-values' }, element('h3', {}, 'Overlays'), element('ul', {}, ...rows));
  }

  private edgeList(title: string, entries: Array<{ edge: ApiEdge; id: string }>): HTMLElement | false {
    if (entries.length === 0) return false;
    return element(
      'section',
      { class: 'edges' },
      element('h3', {}, title),
      element(
        'ul',
        {},
        ...entries
          .slice(0, SHOWN_EDGES)
          .map(({ edge, id }) =>
            element(
              'li',
              {},
              element(
                'button',
                { type: 'button', class: 'link', 'data-node': id, onclick: () => this.events.select(id) },
                this.model.nodes.get(id)?.path === undefined ? id : labelOf(this.model, id),
              ),
              element('span', { class: 'edge-kind' }, edge.kind + (edge.references ? ` (${edge.references.join(', ')})` : '')),
            ),
          ),
        entries.length > SHOWN_EDGES && element('li', { class: 'muted' }, `and ${entries.length - SHOWN_EDGES} more`),
      ),
    );
  }
}

function labelOf(model: GraphModel, id: string): string {
  const node = model.nodes.get(id)!;
  if (isSymbol(node)) return `${node.name} (${node.kind})`;
  return node.kind === 'package' ? node.name : node.path;
}

/** A figure as people read it: at most two decimals. */
export function figure(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString('en-US') : value.toLocaleString('en-US', { maximumFractionDigits: 2 });
}
