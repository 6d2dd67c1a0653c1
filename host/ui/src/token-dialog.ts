// Asks for the server's access token once per browser session.
import { element } from './dom.js';

/** Shows the dialog; resolves with the token typed. `refused` says the last one was wrong. */
export function askForToken(refused: boolean): Promise<string> {
  return new Promise((resolve) => {
    const input = element('input', { id: 'token-input', type: 'password', autocomplete: 'current-password', required: true });
    const form = element(
      'form',
      { method: 'dialog' },
      element('h2', {}, 'Access token'),
      element(
        'p',
        {},
        refused
          ? 'The server refused that token. Type the token it was started with (authToken).'
          : 'This Strata server needs an access token (its authToken setting).',
      ),
      element('label', { for: 'token-input' }, 'Token'),
      input,
      element('div', { class: 'actions' }, element('button', { type: 'submit', class: 'primary' }, 'Connect')),
    );
    const dialog = element('dialog', { class: 'token-dialog', 'aria-label': 'Access token' }, form);
    dialog.addEventListener('cancel', (event) => event.preventDefault());
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const token = input.value.trim();
      if (!token) return;
      dialog.close();
      dialog.remove();
      resolve(token);
    });
    document.body.append(dialog);
    dialog.showModal();
    input.focus();
  });
}
