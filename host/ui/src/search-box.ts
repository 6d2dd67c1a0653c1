// Search: nodes by path or name, with the keyboard: arrows to move, Enter to
// choose, Escape to clear and leave. A node named exactly what was typed comes
// first, then names starting with it, then paths with a segment starting with
// it; uFuzzy ranks the rest (typos, out-of-order terms).
import uFuzzy from '@leeoniya/ufuzzy';
import { element, replaceChildren } from './dom.js';
import { isSymbol } from './graph-data.js';
import type { GraphModel } from './graph-model.js';

const SHOWN = 20;

/** How a node matches what was typed, best first; a node matching none of these is left to uFuzzy. */
const EXACT_NAME = 0;
const NAME_PREFIX = 1;
const PATH_SEGMENT = 2;
const MATCH_TIERS = 3;
/** Where a path segment starts: after a directory separator, or the `#` before a symbol's name. */
const SEGMENT_BOUNDARIES = new Set(['/', '#']);

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
  /** `haystack` and the nodes' names, in lower case, for the exact and prefix matches. */
  private lowerHaystack: string[] = [];
  private lowerNames: string[] = [];
  private names: string[] = [];
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

  /** Empties the box and closes its results (the text of a search chosen from stays until then). */
  clear(): void {
    this.input.value = '';
    this.results = [];
    this.active = -1;
    this.close();
  }

  /** The graph changed: index it again at the next search. */
  invalidate(): void {
    this.indexedRevision = -1;
  }

  private index(): void {
    if (this.indexedRevision === this.model.revision && this.haystack.length > 0) return;
    this.haystack = [];
    this.names = [];
    this.ids = [];
    for (const node of this.model.nodes.values()) {
      this.ids.push(node.id);
      this.names.push(node.name);
      this.haystack.push(isSymbol(node) ? `${node.path}#${node.id.slice(node.id.indexOf('#') + 1)}` : node.kind === 'package' ? node.name : node.path);
    }
    this.lowerHaystack = this.haystack.map((text) => text.toLowerCase());
    this.lowerNames = this.names.map((name) => name.toLowerCase());
    this.indexedRevision = this.model.revision;
  }

  private search(): void {
    const needle = this.input.value.trim();
    if (needle === '') return this.close();
    this.index();
    const ranked = this.rankByName(needle);
    if (ranked.length < SHOWN) {
      const taken = new Set(ranked);
      for (const index of this.rankFuzzily(needle)) {
        if (ranked.length >= SHOWN) break;
        if (!taken.has(index)) ranked.push(index);
      }
    }
    this.results = ranked.slice(0, SHOWN).map((index) => this.ids[index]!);
    this.active = this.results.length > 0 ? 0 : -1;
    this.renderResults();
  }

  /**
   * The nodes named `needle`, then those whose name starts with it, then those
   * with a path segment starting with it (ignoring case). Within each: the
   * same case first, then (of names starting with it) the shorter name, then
   * the shorter path, then the path's order.
   */
  private rankByName(needle: string): number[] {
    const lower = needle.toLowerCase();
    const tiers: number[][] = Array.from({ length: MATCH_TIERS }, () => []);
    for (let i = 0; i < this.ids.length; i++) {
      const tier = this.matchTier(i, lower);
      if (tier !== undefined) tiers[tier]!.push(i);
    }
    const sameCase = (i: number, tier: number): boolean =>
      tier === EXACT_NAME ? this.names[i] === needle : tier === NAME_PREFIX ? this.names[i]!.startsWith(needle) : this.haystack[i]!.includes(needle);
    return tiers.flatMap((indexes, tier) =>
      indexes.sort(
        (a, b) =>
          Number(sameCase(b, tier)) - Number(sameCase(a, tier)) ||
          (tier === NAME_PREFIX ? this.names[a]!.length - this.names[b]!.length : 0) ||
          this.haystack[a]!.length - this.haystack[b]!.length ||
          (this.haystack[a]! < this.haystack[b]! ? -1 : this.haystack[a]! > this.haystack[b]! ? 1 : 0),
      ),
    );
  }

  private matchTier(index: number, lowerNeedle: string): number | undefined {
    const name = this.lowerNames[index]!;
    if (name === lowerNeedle) return EXACT_NAME;
    if (name.startsWith(lowerNeedle)) return NAME_PREFIX;
    const text = this.lowerHaystack[index]!;
    for (let at = text.indexOf(lowerNeedle); at >= 0; at = text.indexOf(lowerNeedle, at + 1))
      if (at === 0 || SEGMENT_BOUNDARIES.has(text[at - 1]!)) return PATH_SEGMENT;
    return undefined;
  }

  /** uFuzzy's ranking of the paths that match `needle` (typos, terms in any order). */
  private rankFuzzily(needle: string): number[] {
    this.fuzzy ??= new uFuzzy({ intraMode: 1, intraIns: 1 });
    const [indexes, info, order] = this.fuzzy.search(this.haystack, needle, 1, 1e3);
    if (indexes && info && order) return order.map((position) => info.idx[position]!);
    return indexes ?? [];
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
      this.clear();
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
