/** The server could not start listening; the message says why in words a user can act on. */
export class ListenError extends Error {
  override readonly name = 'ListenError';
}
