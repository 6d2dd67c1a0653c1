// "What depends on this, what does it depend on": the node panel's section
// that asks GET /api/graph/nodes/{id}/dependents (or /dependencies), shows the
// count at each depth, and has the map draw the reach (reached nodes colored
// by depth, fading with it; the imports that reached them; everything else
// faded). A depth row limits what the map shows to that depth.
import { type ApiClient, nodePath } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import { count as figure } from './numbers.js';
import { reachColor, themeColors } from './palette.js';

export type ReachDirection = 'dependents' | 'dependencies';

/** What the map draws of a reach. */
export interface ShownReach {
  /** The node asked about. */
  root: string;
  direction: ReachDirection;
  /** Each node reached (up to the depth shown), with its depth (1: directly). */
  depths: Map<string, number>;
  /** The import that reached each of them. */
  edges: Set<string>;
}

interface ReachAnswer {
  data: {
    total: number;
    startCount: number;
    byDepth: number[];
    nodes: Array<{ id: string; depth: number; edge: string; from: string }>;
    /** Whether nodes after this page were left out. */
    truncated: boolean;
  };
}

/** Pages of 1,000 fetched for one reach: a hub of a 100k-file graph reaches tens of thousands. */
const PAGE = 1000;
const MAX_PAGES = 100;

const WORDS: Record<ReachDirection, { button: string; many: (count: string) => string; none: string }> = {
  dependents: { button: 'What depends on this', many: (count) => `${count} depend on this`, none: 'Nothing depends on this.' },
  dependencies: { button: 'What this depends on', many: (count) => `This depends on ${count}`, none: 'This depends on nothing.' },
};

export class ReachSection {
  readonly root = element('section', { class: 'reach', 'aria-label': 'Impact' });
  private node: string | undefined;
  private direction: ReachDirection | undefined;
  private answer: ReachAnswer['data'] | undefined;
  private shownDepth = Infinity;
  private request = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly events: { show(reach: ShownReach | undefined): void; error(message: string): void },
  ) {}

  /** The section for `node`: the same one as before when it is the node shown, else a fresh one (and the map's reach cleared). */
  for(node: string): HTMLElement {
    if (node !== this.node) {
      this.clear();
      this.node = node;
    }
    this.render();
    return this.root;
  }

  /** Forgets the reach and has the map stop drawing it. */
  clear(): void {
    const shown = this.direction !== undefined;
    this.request++;
    this.direction = undefined;
    this.answer = undefined;
    this.shownDepth = Infinity;
    if (shown) this.events.show(undefined);
    this.render();
  }

  get active(): boolean {
    return this.direction !== undefined;
  }

  private async ask(direction: ReachDirection): Promise<void> {
    if (this.node === undefined) return;
    if (this.direction === direction) return this.clear();
    const node = this.node;
    const ticket = ++this.request;
    this.direction = direction;
    this.answer = undefined;
    this.shownDepth = Infinity;
    this.render();
    try {
      const first = await this.api.get<ReachAnswer>(`${nodePath(node)}/${direction}?limit=${PAGE}`);
      const nodes = [...first.data.nodes];
      for (let page = 1, truncated = first.data.truncated; page < MAX_PAGES && truncated; page++) {
        const next = await this.api.get<ReachAnswer>(`${nodePath(node)}/${direction}?limit=${PAGE}&offset=${nodes.length}`);
        if (ticket !== this.request) return;
        nodes.push(...next.data.nodes);
        truncated = next.data.truncated && next.data.nodes.length > 0;
      }
      if (ticket !== this.request) return;
      this.answer = { ...first.data, nodes };
    } catch (error) {
      if (ticket !== this.request) return;
      this.direction = undefined;
      this.events.error(`Could not find ${direction}: ${(error as Error).message}`);
    }
    this.render();
    this.publish();
  }

  private publish(): void {
    if (this.node === undefined || this.direction === undefined || !this.answer) return;
    const depths = new Map<string, number>();
    const edges = new Set<string>();
    for (const reached of this.answer.nodes) {
      if (reached.depth > this.shownDepth) continue;
      depths.set(reached.id, reached.depth);
      edges.add(reached.edge);
    }
    this.events.show({ root: this.node, direction: this.direction, depths, edges });
  }

  private render(): void {
    const buttons = (['dependents', 'dependencies'] as const).map((direction) =>
      element(
        'button',
        { type: 'button', 'aria-pressed': String(this.direction === direction), onclick: () => void this.ask(direction) },
        WORDS[direction].button,
      ),
    );
    replaceChildren(this.root, element('h3', {}, 'Impact'), element('div', { class: 'actions' }, ...buttons), this.summary());
  }

  private summary(): HTMLElement | false {
    if (this.direction === undefined) return false;
    const words = WORDS[this.direction];
    if (!this.answer) return element('p', { class: 'muted', role: 'status' }, 'Following the imports…');
    const { total, byDepth } = this.answer;
    if (total === 0) return element('p', { role: 'status' }, words.none);
    const fetched = this.answer.nodes.length;
    return element(
      'div',
      { class: 'reach-summary' },
      element(
        'p',
        { role: 'status' },
        words.many(`${figure(total)} ${total === 1 ? 'node' : 'nodes'}`),
        `, up to ${byDepth.length} ${byDepth.length === 1 ? 'import' : 'imports'} away`,
        fetched < total ? ` (the map shows the nearest ${figure(fetched)})` : '',
        '.',
      ),
      element(
        'ol',
        { class: 'reach-depths', 'aria-label': 'Nodes by depth' },
        ...byDepth.map((count, index) => {
          const depth = index + 1;
          const shown = depth <= this.shownDepth;
          return element(
            'li',
            { 'data-depth': String(depth) },
            element(
              'button',
              {
                type: 'button',
                class: 'link',
                'aria-pressed': String(shown && this.shownDepth !== Infinity && depth === this.shownDepth),
                title: `Show depths 1 to ${depth} on the map`,
                onclick: () => {
                  this.shownDepth = this.shownDepth === depth ? Infinity : depth;
                  this.render();
                  this.publish();
                },
              },
              element('span', { class: 'swatch', style: `background:${reachColor(themeColors(), depth)}` }),
              `${depth === 1 ? 'directly' : `at depth ${depth}`}: ${figure(count)}`,
            ),
          );
        }),
      ),
      element('button', { type: 'button', onclick: () => this.clear() }, 'Clear'),
    );
  }
}
