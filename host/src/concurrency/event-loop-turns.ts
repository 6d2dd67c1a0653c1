/**
 * For long work on the server's thread: a function to await between its
 * steps, which lets the event loop run (requests, file events, a child's
 * messages) once `ms` have passed since it last did, and costs a clock read
 * otherwise.
 */
export function eventLoopTurns(ms: number): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < ms) return;
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}
