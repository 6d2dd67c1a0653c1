// The overlays panel: every plugin with its overlays as toggles, a form made
// from a plugin's parameter schema and declared inputs, its state (applying,
// active, failed), the visible overlays in their order, and their legends.
import { type ApiClient, ApiError } from './api-client.js';
import { element, replaceChildren } from './dom.js';
import type { FollowedEvent } from './event-stream.js';
import { COMPOSITION_RULE, type OverlayRef, overlayKey } from './overlay-composition.js';
import { safeColor } from './palette.js';

/** The events the panel follows: those about plugins and their overlays. */
export type PluginOrOverlayEvent = Extract<FollowedEvent, { type: `plugin.${string}` | `overlay.${string}` }>;

/** A JSON schema, as far as the form reads it. */
interface JsonSchema {
  type?: string | string[];
  /** The field's label; without it the property's name, spelled out (`windowMonths`: "Window months"). */
  title?: string;
  /** The field's help text, under it. */
  description?: string;
  enum?: unknown[];
  pattern?: string;
  format?: string;
  default?: unknown;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}

/** An input a plugin reads (a file the user picks). */
export interface PluginInput {
  name: string;
  description: string;
  accept?: string;
  multiple: boolean;
}

export interface OverlayInfo {
  id: string;
  name: string;
  type: string;
  legend: Record<string, string>;
  description: string;
}

/** An element of `GET /api/overlays`. */
export interface PluginInfo {
  id: string;
  name: string;
  description: string;
  overlays: OverlayInfo[];
  loaded: boolean;
  state: string;
  reason?: string;
  reloadError?: string;
  overlayState: 'inactive' | 'applying' | 'active' | 'failed';
  parameters?: JsonSchema;
  inputs?: PluginInput[];
}

export interface OverlayPanelEvents {
  /** The visible overlays changed (order included): repaint. */
  visibleChanged(visible: OverlayRef[]): void;
  /** A plugin's styles changed on the server: fetch them. */
  stylesChanged(pluginId: string): void;
  error(message: string): void;
}

export class OverlayPanel {
  readonly root = element('section', { class: 'panel overlays', 'aria-labelledby': 'overlays-title' });
  private plugins: PluginInfo[] = [];
  private visible: OverlayRef[] = [];
  private readonly errors = new Map<string, string>();
  /** What each plugin applying now last said of its progress. */
  private readonly progress = new Map<string, { done: number; total: number | undefined; message: string | undefined }>();
  private readonly openForms = new Set<string>();
  /** Overlays the user turned on whose plugin is not applied yet: shown once it is. */
  private readonly wanted = new Set<string>();

  constructor(
    private readonly api: ApiClient,
    private readonly events: OverlayPanelEvents,
  ) {}

  get visibleOverlays(): OverlayRef[] {
    return this.visible;
  }

  /** Plugins whose overlays may paint nodes now (the others serve no styles). */
  get pluginsWithStyles(): string[] {
    return this.plugins.filter((plugin) => plugin.loaded && plugin.overlayState !== 'inactive').map((plugin) => plugin.id);
  }

  overlayName(ref: OverlayRef): string {
    return this.plugins.find((plugin) => plugin.id === ref.pluginId)?.overlays.find((overlay) => overlay.id === ref.overlayId)?.name ?? overlayKey(ref);
  }

  /** Every overlay of the active plugins, for the node panel. */
  get activeOverlays(): OverlayRef[] {
    return this.plugins
      .filter((plugin) => plugin.overlayState === 'active')
      .flatMap((plugin) => plugin.overlays.map((overlay) => ({ pluginId: plugin.id, overlayId: overlay.id })));
  }

  /** Loads the plugins; overlays named in `show` (from the URL) are made visible when their plugin is active. */
  async load(show: OverlayRef[] = []): Promise<void> {
    const listing = await this.api.get<{ plugins: PluginInfo[] }>('/api/overlays');
    this.plugins = listing.plugins;
    for (const ref of show) this.wanted.add(overlayKey(ref));
    this.reconcile();
    this.render();
  }

  /** Follows an overlay or plugin event. */
  async onEvent(event: PluginOrOverlayEvent): Promise<void> {
    const { type } = event;
    const id = event.data.pluginId;
    if (event.type === 'overlay.progress') {
      // Several a second while a long apply runs: only the plugin's state line changes.
      this.progress.set(id, { done: event.data.done, total: event.data.total, message: event.data.message });
      const plugin = this.plugins.find((candidate) => candidate.id === id);
      const state = this.root.querySelector<HTMLElement>(`.plugin[data-plugin="${CSS.escape(id)}"] .state`);
      if (plugin && state) state.textContent = this.stateText(plugin);
      return;
    }
    if (type !== 'overlay.applying') this.progress.delete(id);
    if (event.type === 'overlay.failed') this.errors.set(id, event.data.error.message);
    if (event.type === 'plugin.failed') this.errors.set(id, `reload failed: ${event.data.error}`);
    if (type === 'overlay.applied' || type === 'plugin.ready' || type === 'plugin.loaded') this.errors.delete(id);
    await this.load();
    if (type === 'overlay.applied' || type === 'overlay.removed' || type === 'plugin.ready' || type === 'overlay.failed' || type === 'plugin.removed')
      this.events.stylesChanged(id);
  }

  /** Turns an overlay on or off; on, its plugin is applied first when it is not active. */
  async toggle(ref: OverlayRef, on: boolean): Promise<void> {
    const plugin = this.plugins.find((candidate) => candidate.id === ref.pluginId);
    if (!plugin) return;
    const key = overlayKey(ref);
    if (!on) {
      this.wanted.delete(key);
      this.openForms.delete(plugin.id);
      this.setVisible(this.visible.filter((other) => overlayKey(other) !== key));
      this.render();
      return;
    }
    this.wanted.add(key);
    if (plugin.overlayState === 'active') {
      this.reconcile();
      this.render();
      return;
    }
    if (plugin.overlayState === 'applying') return this.render();
    if (hasForm(plugin)) {
      this.openForms.add(plugin.id);
      this.render();
      this.root.querySelector<HTMLElement>(`form[data-plugin="${CSS.escape(plugin.id)}"] input, form[data-plugin="${CSS.escape(plugin.id)}"] select`)?.focus();
      return;
    }
    await this.apply(plugin, undefined);
  }

  async apply(plugin: PluginInfo, body: Record<string, unknown> | undefined): Promise<void> {
    plugin.overlayState = 'applying';
    this.errors.delete(plugin.id);
    this.openForms.delete(plugin.id);
    this.render();
    try {
      await this.api.post(`/api/overlays/${encodeURIComponent(plugin.id)}/apply`, body);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.errors.set(plugin.id, message);
      if (error instanceof ApiError && error.code === 'INVALID_PARAMETER' && hasForm(plugin)) this.openForms.add(plugin.id);
      else for (const overlay of plugin.overlays) this.wanted.delete(overlayKey({ pluginId: plugin.id, overlayId: overlay.id }));
    }
    await this.load();
    this.events.stylesChanged(plugin.id);
  }

  async remove(plugin: PluginInfo): Promise<void> {
    try {
      await this.api.delete(`/api/overlays/${encodeURIComponent(plugin.id)}/apply`);
    } catch (error) {
      this.events.error(error instanceof Error ? error.message : String(error));
    }
    for (const overlay of plugin.overlays) this.wanted.delete(overlayKey({ pluginId: plugin.id, overlayId: overlay.id }));
    this.errors.delete(plugin.id);
    await this.load();
    this.events.stylesChanged(plugin.id);
  }

  /** Visible = wanted overlays of active plugins, in the order the user gave (new ones on top). */
  private reconcile(): void {
    const active = new Set(this.activeOverlays.map(overlayKey));
    const kept = this.visible.filter((ref) => active.has(overlayKey(ref)) && this.wanted.has(overlayKey(ref)));
    const keptKeys = new Set(kept.map(overlayKey));
    const added = [...this.wanted]
      .filter((key) => active.has(key) && !keptKeys.has(key))
      .map((key) => this.activeOverlays.find((ref) => overlayKey(ref) === key)!);
    this.setVisible([...added, ...kept]);
  }

  private setVisible(visible: OverlayRef[]): void {
    const before = this.visible.map(overlayKey).join(',');
    this.visible = visible;
    if (visible.map(overlayKey).join(',') !== before) this.events.visibleChanged(visible);
  }

  private move(index: number, by: number): void {
    const target = index + by;
    if (target < 0 || target >= this.visible.length) return;
    const reordered = [...this.visible];
    [reordered[index], reordered[target]] = [reordered[target]!, reordered[index]!];
    this.setVisible(reordered);
    this.render();
  }

  render(): void {
    const focused =
      document.activeElement instanceof HTMLElement && this.root.contains(document.activeElement) ? document.activeElement.dataset.focusKey : undefined;
    const loaded = this.plugins.filter((plugin) => plugin.loaded);
    const notLoaded = this.plugins.filter((plugin) => !plugin.loaded);
    replaceChildren(
      this.root,
      element('h2', { id: 'overlays-title' }, 'Overlays'),
      loaded.length === 0 && element('p', { class: 'muted' }, 'No overlay plugins are loaded.'),
      ...loaded.map((plugin) => this.renderPlugin(plugin)),
      notLoaded.length > 0 &&
        element(
          'div',
          { class: 'not-loaded' },
          element('h3', {}, 'Not loaded'),
          element(
            'ul',
            {},
            ...notLoaded.map((plugin) => element('li', { 'data-plugin': plugin.id }, element('strong', {}, plugin.name), ': ', plugin.reason ?? plugin.state)),
          ),
        ),
      this.renderOrder(),
      this.renderLegends(),
    );
    if (focused) this.root.querySelector<HTMLElement>(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
  }

  /** "applying… 42% (blaming files)", "active", "failed". */
  private stateText(plugin: PluginInfo): string {
    if (plugin.overlayState === 'applying') {
      const progress = this.progress.get(plugin.id);
      if (!progress) return 'applying…';
      const amount = progress.total ? `${Math.min(100, Math.floor((100 * progress.done) / progress.total))}%` : progress.done.toLocaleString('en-US');
      return `applying… ${amount}${progress.message ? ` (${progress.message})` : ''}`;
    }
    return plugin.overlayState === 'failed' && !this.errors.get(plugin.id) ? 'failed' : plugin.overlayState;
  }

  private renderPlugin(plugin: PluginInfo): HTMLElement {
    const visibleKeys = new Set(this.visible.map(overlayKey));
    const error = this.errors.get(plugin.id);
    const stateText = this.stateText(plugin);
    return element(
      'div',
      { class: 'plugin', 'data-plugin': plugin.id, 'data-state': plugin.overlayState },
      element(
        'div',
        { class: 'plugin-head' },
        element('span', { class: 'plugin-name', title: plugin.description }, plugin.name),
        element('span', { class: `state state-${plugin.overlayState}`, role: 'status', 'aria-label': `${plugin.name} state` }, stateText),
        (plugin.overlayState === 'active' || plugin.overlayState === 'failed') &&
          element(
            'button',
            {
              type: 'button',
              class: 'link',
              'data-focus-key': `remove:${plugin.id}`,
              'aria-label': `Remove ${plugin.name}`,
              onclick: () => void this.remove(plugin),
            },
            'Remove',
          ),
      ),
      ...plugin.overlays.map((overlay) => {
        const ref = { pluginId: plugin.id, overlayId: overlay.id };
        const key = overlayKey(ref);
        const checked =
          visibleKeys.has(key) ||
          (this.wanted.has(key) && plugin.overlayState !== 'inactive' && plugin.overlayState !== 'failed') ||
          (this.wanted.has(key) && this.openForms.has(plugin.id));
        return element(
          'label',
          { class: 'toggle', title: overlay.description },
          element('input', {
            type: 'checkbox',
            role: 'switch',
            'data-focus-key': `toggle:${key}`,
            checked,
            disabled: plugin.overlayState === 'applying',
            onchange: (event) => void this.toggle(ref, (event.target as HTMLInputElement).checked),
          }),
          element('span', {}, overlay.name),
          element('span', { class: 'overlay-type' }, overlay.type),
        );
      }),
      this.openForms.has(plugin.id) && this.renderForm(plugin),
      error && element('p', { class: 'plugin-error', role: 'alert' }, error),
      plugin.reloadError && element('p', { class: 'plugin-error' }, `Reload failed, the previous version serves: ${plugin.reloadError}`),
    );
  }

  /** A form from the plugin's parameter schema and its declared inputs. */
  private renderForm(plugin: PluginInfo): HTMLElement {
    const properties = plugin.parameters?.properties ?? {};
    const required = new Set(plugin.parameters?.required ?? []);
    const fields = Object.entries(properties).map(([name, schema]) => {
      const id = `param-${plugin.id}-${name}`;
      const help = schema.description ? `${id}-help` : undefined;
      const input = fieldFor(name, schema, id, required.has(name));
      if (help) input.setAttribute('aria-describedby', help);
      return element(
        'div',
        { class: 'field' },
        element('label', { for: id }, schema.title?.trim() || spelledOut(name)),
        input,
        help && element('small', { id: help }, schema.description),
      );
    });
    const inputs = (plugin.inputs ?? []).map((declared) => {
      const id = `input-${plugin.id}-${declared.name}`;
      const help = declared.description ? `${id}-help` : undefined;
      return element(
        'div',
        { class: 'field' },
        element('label', { for: id }, spelledOut(declared.name)),
        element('input', {
          id,
          type: 'file',
          name: `input:${declared.name}`,
          accept: declared.accept,
          multiple: declared.multiple,
          'aria-describedby': help,
        }),
        help && element('small', { id: help }, declared.description),
      );
    });
    const form = element(
      'form',
      { class: 'apply-form', 'data-plugin': plugin.id, 'aria-label': `Apply ${plugin.name}` },
      ...fields,
      ...inputs,
      element(
        'div',
        { class: 'actions' },
        element('button', { type: 'submit' }, 'Apply'),
        element(
          'button',
          {
            type: 'button',
            onclick: () => {
              this.openForms.delete(plugin.id);
              for (const overlay of plugin.overlays) this.wanted.delete(overlayKey({ pluginId: plugin.id, overlayId: overlay.id }));
              this.render();
            },
          },
          'Cancel',
        ),
      ),
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void readForm(form, plugin).then(
        (body) => this.apply(plugin, body),
        (error: Error) => this.errors.set(plugin.id, error.message),
      );
    });
    return form;
  }

  private renderOrder(): HTMLElement | false {
    if (this.visible.length === 0) return false;
    return element(
      'div',
      { class: 'order' },
      element('h3', {}, 'Visible, topmost first'),
      element('p', { class: 'muted rule' }, COMPOSITION_RULE),
      element(
        'ol',
        { 'aria-label': 'Visible overlays' },
        ...this.visible.map((ref, index) =>
          element(
            'li',
            { 'data-overlay': overlayKey(ref) },
            element('span', {}, this.overlayName(ref)),
            element(
              'button',
              {
                type: 'button',
                class: 'icon',
                'data-focus-key': `up:${overlayKey(ref)}`,
                'aria-label': `Move ${this.overlayName(ref)} up`,
                disabled: index === 0,
                onclick: () => this.move(index, -1),
              },
              '↑',
            ),
            element(
              'button',
              {
                type: 'button',
                class: 'icon',
                'data-focus-key': `down:${overlayKey(ref)}`,
                'aria-label': `Move ${this.overlayName(ref)} down`,
                disabled: index === this.visible.length - 1,
                onclick: () => this.move(index, 1),
              },
              '↓',
            ),
          ),
        ),
      ),
    );
  }

  private renderLegends(): HTMLElement | false {
    if (this.visible.length === 0) return false;
    return element(
      'div',
      { class: 'legends' },
      ...this.visible.map((ref) => {
        const overlay = this.plugins.find((plugin) => plugin.id === ref.pluginId)?.overlays.find((candidate) => candidate.id === ref.overlayId);
        const entries = Object.entries(overlay?.legend ?? {});
        return element(
          'figure',
          { class: 'legend', 'data-overlay': overlayKey(ref), 'aria-label': `Legend of ${this.overlayName(ref)}` },
          element('figcaption', {}, this.overlayName(ref)),
          // Edges (change coupling, ...) are served but not drawn yet: say so rather than show nothing.
          overlay?.type === 'edge' &&
            element('p', { class: 'muted' }, `Its edges are not drawn on the map yet; GET /api/overlays/${ref.pluginId}/edges serves them.`),
          entries.length === 0
            ? element('p', { class: 'muted' }, overlay?.type === 'color' ? 'No legend.' : `Shown as ${overlay?.type ?? 'style'}.`)
            : element(
                'ul',
                {},
                ...entries.map(([label, color]) => element('li', {}, element('span', { class: 'swatch', style: `background:${safeColor(color)}` }), label)),
              ),
        );
      }),
    );
  }
}

function hasForm(plugin: PluginInfo): boolean {
  return Object.keys(plugin.parameters?.properties ?? {}).length > 0 || (plugin.inputs ?? []).length > 0;
}

/** A parameter's name as words: `windowMonths`, `window_months` and `window-months` read "Window months"; `maxURLLength` "Max URL length". */
function spelledOut(name: string): string {
  const words = name
    .split(/[\s_-]+|(?<=[a-z\d])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter(Boolean)
    .map((word) => (word.length > 1 && word === word.toUpperCase() ? word : word.toLowerCase()));
  if (words.length === 0) return name;
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return words.join(' ');
}

function typeOf(schema: JsonSchema): string {
  return Array.isArray(schema.type) ? (schema.type.find((type) => type !== 'null') ?? 'string') : (schema.type ?? 'string');
}

/** A date pattern such as git-activity's `since`: a date picker. */
function isDate(schema: JsonSchema): boolean {
  return schema.format === 'date' || schema.format === 'date-time' || (schema.pattern ?? '').startsWith('^\\d{4}-\\d{2}-\\d{2}');
}

function fieldFor(name: string, schema: JsonSchema, id: string, required: boolean): HTMLElement {
  const type = typeOf(schema);
  const common = { id, name: `param:${name}`, required, 'data-type': type };
  if (schema.enum)
    return element(
      'select',
      common,
      !required && element('option', { value: '' }, '(default)'),
      ...schema.enum.map((value) => element('option', { value: String(value) }, String(value))),
    );
  if (type === 'boolean') return element('input', { ...common, type: 'checkbox', checked: schema.default === true });
  if (type === 'integer' || type === 'number')
    return element('input', {
      ...common,
      type: 'number',
      step: type === 'integer' ? 1 : 'any',
      placeholder: schema.default !== undefined ? String(schema.default) : undefined,
    });
  if (type === 'array') return element('input', { ...common, type: 'text', placeholder: 'comma-separated' });
  if (type === 'string')
    return element('input', {
      ...common,
      type: isDate(schema) ? 'date' : 'text',
      placeholder: typeof schema.default === 'string' ? schema.default : undefined,
    });
  return element('textarea', { ...common, placeholder: 'JSON' });
}

/** The apply body: parameters (empty fields left out, so that the plugin's defaults hold) and the picked files' texts as `inputs`. */
async function readForm(form: HTMLFormElement, plugin: PluginInfo): Promise<Record<string, unknown> | undefined> {
  const body: Record<string, unknown> = {};
  for (const field of form.querySelectorAll<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>('[name^="param:"]')) {
    const name = field.name.slice('param:'.length);
    const type = field.dataset.type;
    if (field instanceof HTMLInputElement && field.type === 'checkbox') {
      body[name] = field.checked;
      continue;
    }
    const value = field.value.trim();
    if (value === '') continue;
    if (type === 'integer' || type === 'number') body[name] = Number(value);
    else if (type === 'array')
      body[name] = value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    else if (type === 'object') {
      try {
        body[name] = JSON.parse(value);
      } catch {
        throw new Error(`${name}: is not valid JSON`);
      }
    } else body[name] = value;
  }
  const inputs: Record<string, string | string[]> = {};
  for (const declared of plugin.inputs ?? []) {
    const field = form.querySelector<HTMLInputElement>(`input[name="input:${CSS.escape(declared.name)}"]`);
    const files = [...(field?.files ?? [])];
    if (files.length === 0) continue;
    const texts = await Promise.all(files.map((file) => file.text()));
    inputs[declared.name] = declared.multiple ? texts : texts[0]!;
  }
  if (Object.keys(inputs).length > 0) body.inputs = inputs;
  return Object.keys(body).length > 0 ? body : undefined;
}
