import type { ForegroundRequests } from './foreground-requests.js';

/**
 * For long work on the server's thread: a function to await between its
 * steps, which lets the event loop run (requests, file events, a child's
 * messages) once `ms` have passed since it last did, and costs a clock read
 * otherwise. With `foreground`, a turn also waits while the server is
 * answering a request (bounded), so that the work gives way to it.
 */
export function eventLoopTurns(ms: number, foreground?: ForegroundRequests): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    if (foreground?.busy) await foreground.whenQuiet();
    since = performance.now();
  };
}
