// The layout panel: every layout endpoint from the page. Compute (with its
// progress, backend and a cancel), whether a GPU computes here, save the
// positions after dragging nodes, and reset the saved layout.
import { type ApiClient, ServerUnreachableError } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import { count } from './numbers.js';

/** GET /api/graph/layout/compute/status */
export interface LayoutStatus {
  state: 'idle' | 'running' | 'completed' | 'cancelled' | 'failed';
  iteration: number;
  iterations: number;
  progress: number;
  backend: string | null;
  nodes: number;
  error: string | null;
}

/** GET /api/graph/layout/compute/available */
interface LayoutAvailability {
  available: boolean;
  backend: string | null;
  gpu: boolean;
  device: string;
  error?: string;
}

export interface LayoutPanelEvents {
  /** New positions were saved on the server (a computation completed, or a reset): fetch them. */
  positionsChanged(): void;
  /** Where the nodes are now, for "Save layout". */
  positions(): Record<string, { x: number; y: number }>;
  error(message: string): void;
}

const POLL_MS = 300;

/** The panel's elements, made once (see `render`). */
interface LayoutPanelParts {
  device: HTMLParagraphElement;
  positions: HTMLParagraphElement;
  iterations: HTMLInputElement;
  compute: HTMLButtonElement;
  cancel: HTMLButtonElement;
  save: HTMLButtonElement;
  reset: HTMLButtonElement;
  status: HTMLDivElement;
  progress: HTMLProgressElement;
  statusText: HTMLSpanElement;
}

export class LayoutPanel {
  readonly root = element('section', { class: 'panel layout', 'aria-labelledby': 'layout-title' });
  private status: LayoutStatus | undefined;
  private availability: LayoutAvailability | undefined;
  private savedPositions = 0;
  private nodeCount = 0;
  private dirty = false;
  private polling: ReturnType<typeof setTimeout> | undefined;
  private iterations = 500;
  private parts: LayoutPanelParts | undefined;

  constructor(
    private readonly api: ApiClient,
    private readonly events: LayoutPanelEvents,
  ) {}

  /** Loads the computation's status. */
  async load(): Promise<void> {
    const status = await this.api.get<{ data: LayoutStatus }>('/api/graph/layout/compute/status');
    this.status = status.data;
    this.render();
    if (this.status.state === 'running') this.poll();
  }

  /**
   * Asks whether a GPU computes layouts. The page asks once the map is drawn:
   * the server's first answer to that loads TensorFlow.js in a worker (200 to
   * 300 ms of CPU), which on a machine of two cores took that from the page's
   * load.
   */
  loadAvailability(): void {
    void this.api
      .get<{ data: LayoutAvailability }>('/api/graph/layout/compute/available')
      .then((availability) => {
        this.availability = availability.data;
        this.render();
      })
      .catch((error) => {
        // The banner says that the server is down; reconnecting loads the panel again.
        if (!(error instanceof ServerUnreachableError)) this.events.error(error instanceof Error ? error.message : String(error));
      });
  }

  /** The graph as loaded: how many of its nodes had a saved position. */
  graphLoaded(savedPositions: number, nodeCount: number): void {
    this.savedPositions = savedPositions;
    this.nodeCount = nodeCount;
    this.dirty = false;
    this.render();
  }

  /** A node was dragged: the layout can be saved. */
  moved(): void {
    this.dirty = true;
    this.render();
  }

  /** `layout.started` / `layout.finished` from the event stream. */
  onEvent(type: string): void {
    if (type === 'layout.started') this.poll();
    else void this.refreshStatus(true);
  }

  async compute(): Promise<void> {
    try {
      const started = await this.api.post<{ data: LayoutStatus }>('/api/graph/layout/compute', { iterations: this.iterations });
      this.status = started.data;
      this.render();
      this.poll();
    } catch (error) {
      this.events.error((error as Error).message);
    }
  }

  async cancel(): Promise<void> {
    try {
      this.status = (await this.api.post<{ data: LayoutStatus }>('/api/graph/layout/compute/cancel')).data;
      this.render();
    } catch (error) {
      this.events.error((error as Error).message);
    }
  }

  async save(): Promise<void> {
    try {
      await this.api.post('/api/graph/layout', { positions: this.events.positions() });
      this.dirty = false;
      this.events.positionsChanged();
    } catch (error) {
      this.events.error((error as Error).message);
    }
  }

  async reset(): Promise<void> {
    try {
      await this.api.delete('/api/graph/layout');
      this.events.positionsChanged();
    } catch (error) {
      this.events.error((error as Error).message);
    }
  }

  private poll(): void {
    clearTimeout(this.polling);
    this.polling = setTimeout(() => void this.refreshStatus(false), POLL_MS);
  }

  private async refreshStatus(finished: boolean): Promise<void> {
    const before = this.status?.state;
    try {
      this.status = (await this.api.get<{ data: LayoutStatus }>('/api/graph/layout/compute/status')).data;
    } catch (error) {
      this.events.error((error as Error).message);
      return;
    }
    this.render();
    if (this.status.state === 'running') this.poll();
    else if (this.status.state === 'completed' && (before === 'running' || finished)) this.events.positionsChanged();
    else if (this.status.state === 'failed' && before === 'running' && this.status.error) this.events.error(`layout failed: ${this.status.error}`);
  }

  /**
   * Brings the panel up to date. Its elements are made once and changed in
   * place: the status changes every poll while a computation runs, and an
   * input drawn anew would lose what is being typed into it (and its focus).
   */
  render(): void {
    const status = this.status;
    const running = status?.state === 'running';
    const availability = this.availability;
    const parts = this.parts ?? (this.parts = this.build());
    const device = availability
      ? `${availability.backend ?? 'no backend'} · ${availability.gpu ? `GPU: ${availability.device}` : `no GPU (${availability.device || 'CPU'})`}`
      : '…';
    parts.device.textContent = `Computes on ${device}`;
    const noLayout = this.savedPositions === 0 && this.nodeCount > 0;
    parts.positions.className = noLayout ? 'hint' : 'muted';
    if (noLayout) parts.positions.dataset.role = 'no-layout';
    else delete parts.positions.dataset.role;
    parts.positions.textContent = noLayout
      ? 'No saved layout: nodes are placed as a tree. Compute a layout to group files by their imports.'
      : `${count(this.savedPositions)} of ${count(this.nodeCount)} nodes have a saved position.`;
    parts.compute.hidden = running;
    parts.cancel.hidden = !running;
    parts.save.disabled = !this.dirty || running;
    parts.reset.disabled = running || this.savedPositions === 0;
    parts.status.hidden = !status || status.state === 'idle';
    if (status && status.state !== 'idle') this.renderStatus(parts, status);
  }

  private build(): LayoutPanelParts {
    const parts: LayoutPanelParts = {
      device: element('p', { class: 'muted', 'data-role': 'layout-device' }),
      positions: element('p', { class: 'muted' }),
      iterations: element('input', {
        id: 'layout-iterations',
        type: 'number',
        min: 1,
        max: 10000,
        value: this.iterations,
        oninput: (event) => {
          const typed = Math.round(Number((event.target as HTMLInputElement).value));
          if (typed >= 1) this.iterations = typed;
        },
        onchange: (event) => (this.iterations = Math.max(1, Math.round(Number((event.target as HTMLInputElement).value) || 500))),
      }),
      compute: element('button', { type: 'button', class: 'primary', onclick: () => void this.compute() }, 'Compute layout'),
      cancel: element('button', { type: 'button', onclick: () => void this.cancel() }, 'Cancel layout'),
      save: element('button', { type: 'button', onclick: () => void this.save() }, 'Save layout'),
      reset: element('button', { type: 'button', onclick: () => void this.reset() }, 'Reset layout'),
      status: element('div', { class: 'layout-status' }),
      progress: element('progress', { max: 100, value: 0, 'aria-label': 'Layout progress' }),
      statusText: element('span', { role: 'status', 'aria-label': 'Layout status' }),
    };
    parts.status.append(parts.progress, parts.statusText);
    replaceChildren(
      this.root,
      element('h2', { id: 'layout-title' }, 'Layout'),
      parts.device,
      parts.positions,
      element('div', { class: 'row' }, element('label', { for: 'layout-iterations' }, 'Iterations'), parts.iterations),
      element('div', { class: 'actions' }, parts.compute, parts.cancel, parts.save, parts.reset),
      parts.status,
    );
    return parts;
  }

  private renderStatus(parts: LayoutPanelParts, status: LayoutStatus): void {
    const percent = Math.round(status.progress * 100);
    parts.status.dataset.state = status.state;
    parts.progress.value = percent;
    parts.statusText.textContent =
      status.state === 'running'
        ? `Running: ${status.iteration} of ${status.iterations} iterations (${percent} %) on ${status.backend ?? '…'}`
        : status.state === 'failed'
          ? `Failed: ${status.error ?? 'unknown error'}`
          : `${status.state[0]!.toUpperCase()}${status.state.slice(1)}: ${status.iteration} of ${status.iterations} iterations on ${status.backend ?? '?'}`;
  }
}
