// "Are there cycles?": the sidebar's list of import cycles (GET
// /api/graph/cycles: the strongly connected components of the file import
// graph, largest first), asked for on demand; choosing one draws it on the
// map (its shortest cycle strongest, the rest of the component lighter,
// everything else faded) and frames it.
import type { ApiClient } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import type { GraphModel } from './graph-model.js';
import { count } from './numbers.js';
import type { ShownReach } from './reach-section.js';

interface Component {
  members: string[];
  edgeCount: number;
  cycle: string[];
}

interface CyclesAnswer {
  data: { componentCount: number; memberCount: number; components: Component[] };
}

/** Components listed: the largest hundred (the API's page); the count says how many there are. */
const LISTED = 100;
/** Depth given to a component's members off its shortest cycle: drawn lighter than the cycle's (depth 1). */
const OFF_CYCLE_DEPTH = 3;

export class CyclesPanel {
  readonly root = element('section', { class: 'panel cycles', 'aria-labelledby': 'cycles-title' });
  private answer: CyclesAnswer['data'] | undefined;
  private askedAt = -1;
  private chosen: number | undefined;
  private typeOnlyLeftOut = true;
  private request = 0;
  private pending = false;

  constructor(
    private readonly api: ApiClient,
    private readonly model: GraphModel,
    private readonly events: { show(reach: ShownReach | undefined): void; error(message: string): void },
  ) {
    this.render();
  }

  /** Another answer took the map (the node panel's reach): no cycle is chosen any more. */
  deselect(): void {
    if (this.chosen === undefined) return;
    this.chosen = undefined;
    this.render();
  }

  private async ask(): Promise<void> {
    const ticket = ++this.request;
    this.pending = true;
    this.render();
    try {
      const exclude = this.typeOnlyLeftOut ? '&exclude=type-only' : '';
      const answer = await this.api.get<CyclesAnswer>(`/api/graph/cycles?limit=${LISTED}&edgeLimit=0${exclude}`);
      if (ticket !== this.request) return;
      this.answer = answer.data;
      this.askedAt = this.model.revision;
    } catch (error) {
      if (ticket !== this.request) return;
      this.events.error(`Could not find the import cycles: ${(error as Error).message}`);
    }
    this.pending = false;
    if (this.chosen !== undefined) this.choose(undefined);
    this.render();
  }

  private choose(index: number | undefined): void {
    const component = index === undefined ? undefined : this.answer?.components[index];
    this.chosen = component ? index : undefined;
    this.render();
    if (!component) return this.events.show(undefined);
    const depths = new Map<string, number>(component.members.map((id) => [id, OFF_CYCLE_DEPTH]));
    const edges = new Set<string>();
    component.cycle.forEach((id, i) => {
      depths.set(id, 1);
      const next = component.cycle[(i + 1) % component.cycle.length]!;
      const edge = this.model.importsOf(id).find((candidate) => candidate.source === id && candidate.target === next);
      if (edge) edges.add(edge.id);
    });
    // The map frames what it is given: the cycle's first file stands for "the node asked about".
    depths.delete(component.cycle[0]!);
    this.events.show({ root: component.cycle[0]!, direction: 'dependencies', depths, edges });
  }

  private render(): void {
    const stale = this.answer !== undefined && this.askedAt !== this.model.revision;
    replaceChildren(
      this.root,
      element('h2', { id: 'cycles-title' }, 'Import cycles'),
      element(
        'label',
        { class: 'check' },
        element('input', {
          type: 'checkbox',
          checked: this.typeOnlyLeftOut,
          onchange: (event: Event) => {
            this.typeOnlyLeftOut = (event.target as HTMLInputElement).checked;
            if (this.answer) void this.ask();
          },
        }),
        'Leave out type-only imports',
      ),
      element(
        'button',
        { type: 'button', disabled: this.pending, onclick: () => void this.ask() },
        this.answer ? (stale ? 'Find them again (the graph changed)' : 'Find them again') : 'Find import cycles',
      ),
      this.pending && element('p', { class: 'muted', role: 'status' }, 'Looking for cycles…'),
      !this.pending && this.answer && this.list(this.answer),
    );
  }

  private list(answer: CyclesAnswer['data']): HTMLElement {
    if (answer.componentCount === 0) return element('p', { role: 'status' }, 'No import cycle.');
    const { componentCount, memberCount, components } = answer;
    return element(
      'div',
      {},
      element(
        'p',
        { role: 'status' },
        `${count(componentCount)} ${componentCount === 1 ? 'cycle' : 'cycles'}, ${count(memberCount)} files in them`,
        componentCount > components.length ? ` (the largest ${components.length} listed)` : '',
        '.',
      ),
      element(
        'ol',
        { class: 'answer-list', 'aria-label': 'Cycles, largest first' },
        ...components.map((component, index) =>
          element(
            'li',
            {},
            element(
              'button',
              {
                type: 'button',
                class: 'link',
                'aria-pressed': String(index === this.chosen),
                title: component.cycle.map((id) => this.pathOf(id)).join(' → '),
                onclick: () => this.choose(index === this.chosen ? undefined : index),
              },
              `${count(component.members.length)} files: ${this.shortCycle(component.cycle)}`,
            ),
          ),
        ),
      ),
    );
  }

  /** `a.ts → b.ts → a.ts`, the names of the shortest cycle (its first four, then how many more). */
  private shortCycle(cycle: string[]): string {
    const names = cycle.slice(0, 4).map((id) => this.model.nodes.get(id)?.name ?? id);
    if (cycle.length > 4) names.push(`… ${cycle.length - 4} more`);
    return [...names, this.model.nodes.get(cycle[0]!)?.name ?? cycle[0]!].join(' → ');
  }

  private pathOf(id: string): string {
    return this.model.nodes.get(id)?.path ?? id;
  }
}
