// What the page tells the user about the server: a banner while it does not
// answer, and each error the API gave, with its message.
import { element } from './dom.js';

export class Notices {
  readonly root = element('div', { class: 'notices' });
  private readonly banner = element('div', { class: 'banner', role: 'status', hidden: true });
  private readonly errors = element('ul', { class: 'errors', 'aria-label': 'Errors' });

  constructor() {
    this.root.append(this.banner, this.errors);
  }

  /** The server does not answer (the message says when the page tries again). */
  offline(message: string): void {
    this.banner.hidden = false;
    this.banner.textContent = message;
  }

  online(): void {
    this.banner.hidden = true;
    this.banner.textContent = '';
  }

  /** An error to show until dismissed (the same message is shown once). */
  error(message: string): void {
    for (const item of this.errors.querySelectorAll('li')) if (item.dataset.message === message) return;
    const item = element('li', { role: 'alert', 'data-message': message }, element('span', {}, message));
    item.append(element('button', { type: 'button', class: 'dismiss', 'aria-label': 'Dismiss', onclick: () => item.remove() }, '×'));
    this.errors.append(item);
    if (this.errors.children.length > 5) this.errors.firstElementChild?.remove();
  }
}
