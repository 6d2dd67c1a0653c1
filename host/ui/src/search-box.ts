// Search: nodes by path or name, ranked by uFuzzy (typos, out-of-order
// terms), with the keyboard: arrows to move, Enter to choose, Escape to leave.
import uFuzzy from '@leeoniya/ufuzzy';
import { element, replaceChildren } from './dom.js';
import { isSymbol } from './graph-data.js';
import type { GraphModel } from './graph-model.js';

const SHOWN = 20;

export class SearchBox {
  readonly root = element('div', { class: 'search' });
  readonly input = element('input', {
    type: 'search',
    'aria-label': 'Search',
    placeholder: 'Search files and symbols  ( / )',
    role: 'combobox',
    'aria-expanded': 'false',
    'aria-controls': 'search-results',
    'aria-autocomplete': 'list',
    autocomplete: 'off',
    spellcheck: 'false',
  });
  private readonly list = element('ul', { id: 'search-results', role: 'listbox', 'aria-label': 'Search results', hidden: true });
  /** Made at the first search: its constructor costs tens of milliseconds of the page's start. */
  private fuzzy: uFuzzy | undefined;
  private haystack: string[] = [];
  private ids: string[] = [];
  private indexedRevision = -1;
  private results: string[] = [];
  private active = -1;

  constructor(
    private readonly model: GraphModel,
    private readonly choose: (id: string) => void,
  ) {
    this.root.append(this.input, this.list);
    this.input.addEventListener('input', () => this.search());
    this.input.addEventListener('keydown', (event) => this.key(event));
    this.input.addEventListener('blur', () => setTimeout(() => this.close(), 150));
    this.input.addEventListener('focus', () => {
      if (this.input.value) this.search();
    });
  }

  focus(): void {
    this.input.focus();
    this.input.select();
  }

  /** The graph changed: index it again at the next search. */
  invalidate(): void {
    this.indexedRevision = -1;
  }

  private index(): void {
    if (this.indexedRevision === this.model.revision && this.haystack.length > 0) return;
    this.haystack = [];
    this.ids = [];
    for (const node of this.model.nodes.values()) {
      this.ids.push(node.id);
      this.haystack.push(isSymbol(node) ? `${node.path}#${node.id.slice(node.id.indexOf('#') + 1)}` : node.kind === 'package' ? node.name : node.path);
    }
    this.indexedRevision = this.model.revision;
  }

  private search(): void {
    const needle = this.input.value.trim();
    if (needle === '') return this.close();
    this.index();
    this.fuzzy ??= new uFuzzy({ intraMode: 1, intraIns: 1 });
    const [indexes, info, order] = this.fuzzy.search(this.haystack, needle, 1, 1e3);
    let ranked: number[] = [];
    if (indexes && info && order) ranked = order.map((position) => info.idx[position]!);
    else if (indexes) ranked = indexes;
    this.results = ranked.slice(0, SHOWN).map((index) => this.ids[index]!);
    this.active = this.results.length > 0 ? 0 : -1;
    this.renderResults();
  }

  private renderResults(): void {
    replaceChildren(
      this.list,
      ...(this.results.length === 0
        ? [element('li', { class: 'muted', role: 'option', 'aria-disabled': 'true' }, 'No node matches')]
        : this.results.map((id, index) => {
            const node = this.model.nodes.get(id)!;
            return element(
              'li',
              {
                id: `search-result-${index}`,
                role: 'option',
                'aria-selected': index === this.active ? 'true' : 'false',
                'data-node': id,
                onmousedown: (event) => {
                  event.preventDefault();
                  this.pick(index);
                },
              },
              element('span', { class: `kind kind-${node.kind}` }, node.kind),
              element('span', { class: 'name' }, node.name),
              element(
                'span',
                { class: 'path' },
                isSymbol(node) || node.kind === 'package' ? node.path : node.path.slice(0, Math.max(node.path.length - node.name.length - 1, 0)),
              ),
            );
          })),
    );
    this.list.hidden = false;
    this.input.setAttribute('aria-expanded', 'true');
    if (this.active >= 0) this.input.setAttribute('aria-activedescendant', `search-result-${this.active}`);
    else this.input.removeAttribute('aria-activedescendant');
    this.list.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  private key(event: KeyboardEvent): void {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (this.results.length === 0) return;
      event.preventDefault();
      this.active = (this.active + (event.key === 'ArrowDown' ? 1 : -1) + this.results.length) % this.results.length;
      this.renderResults();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (this.active >= 0) this.pick(this.active);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      this.input.value = '';
      this.close();
      this.input.blur();
    }
  }

  private pick(index: number): void {
    const id = this.results[index];
    if (id === undefined) return;
    this.close();
    // Back to the map: the shortcuts act on what was chosen.
    this.input.blur();
    this.choose(id);
  }

  private close(): void {
    this.list.hidden = true;
    this.input.setAttribute('aria-expanded', 'false');
    this.input.removeAttribute('aria-activedescendant');
  }
}
