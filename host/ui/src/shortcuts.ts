// Keyboard shortcuts, and the help dialog that lists them.
import { element } from './dom.js';

export interface Shortcut {
  keys: string;
  description: string;
  run(): void;
}

/**
 * Listens for the shortcuts while focus is not in a text field and no dialog
 * is open (the dialog has the keys: Escape closes it); `?` opens the list.
 */
export function installShortcuts(shortcuts: Shortcut[]): { openHelp(): void } {
  const help = element(
    'dialog',
    { class: 'help-dialog', 'aria-label': 'Keyboard shortcuts' },
    element('h2', {}, 'Keyboard shortcuts'),
    element(
      'dl',
      {},
      ...[['?', 'Show this list'], ...shortcuts.map((shortcut) => [shortcut.keys, shortcut.description])].flatMap(([keys, description]) => [
        element('dt', {}, element('kbd', {}, keys!)),
        element('dd', {}, description!),
      ]),
    ),
    element('form', { method: 'dialog' }, element('button', { type: 'submit' }, 'Close')),
  );
  document.body.append(help);
  const openHelp = (): void => {
    if (!help.open) help.showModal();
  };
  document.addEventListener('keydown', (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target as HTMLElement;
    if (target.closest('input, textarea, select, [contenteditable]') || document.querySelector('dialog[open]')) return;
    if (event.key === '?') {
      event.preventDefault();
      openHelp();
      return;
    }
    const shortcut = shortcuts.find((candidate) => candidate.keys.split(' or ').includes(event.key));
    if (!shortcut) return;
    event.preventDefault();
    shortcut.run();
  });
  return { openHelp };
}
