// Filters: which kinds of node and which languages are drawn, and the
// directory the map is focused on.
import { element, replaceChildren } from './dom.js';
import type { VisibilityFilter } from './map-view.js';

const KINDS: Array<[kind: string, label: string]> = [
  ['directory', 'Directories'],
  ['file', 'Files'],
  ['package', 'Packages'],
];

export interface FilterPanelEvents {
  change(filter: Partial<VisibilityFilter>): void;
  focusName(id: string): string;
}

export class FilterPanel {
  readonly root = element('section', { class: 'panel filters', 'aria-labelledby': 'filters-title' });

  constructor(private readonly events: FilterPanelEvents) {}

  render(filter: VisibilityFilter, languages: Map<string, string>): void {
    replaceChildren(
      this.root,
      element('h2', { id: 'filters-title' }, 'Show'),
      filter.focus !== undefined &&
        element(
          'p',
          { class: 'focus', 'data-role': 'focus' },
          `Focused on ${this.events.focusName(filter.focus)} `,
          element('button', { type: 'button', class: 'link', onclick: () => this.events.change({ focus: undefined }) }, 'Show everything'),
        ),
      element(
        'div',
        { class: 'checks' },
        ...KINDS.map(([kind, label]) =>
          element(
            'label',
            {},
            element('input', {
              type: 'checkbox',
              checked: !filter.hiddenKinds.has(kind),
              onchange: (event) => this.events.change({ hiddenKinds: toggled(filter.hiddenKinds, kind, (event.target as HTMLInputElement).checked) }),
            }),
            label,
          ),
        ),
      ),
      languages.size > 0 &&
        element(
          'div',
          { class: 'checks languages', role: 'group', 'aria-label': 'Languages' },
          ...[...languages.entries()].map(([language, color]) =>
            element(
              'label',
              {},
              element('input', {
                type: 'checkbox',
                checked: !filter.hiddenLanguages.has(language),
                onchange: (event) =>
                  this.events.change({ hiddenLanguages: toggled(filter.hiddenLanguages, language, (event.target as HTMLInputElement).checked) }),
              }),
              element('span', { class: 'swatch', style: `background:${color}` }),
              language,
            ),
          ),
        ),
    );
  }
}

function toggled(set: Set<string>, value: string, shown: boolean): Set<string> {
  const next = new Set(set);
  if (shown) next.delete(value);
  else next.add(value);
  return next;
}
