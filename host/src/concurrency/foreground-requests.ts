import type { ServerResponse } from 'node:http';
import { injectable } from 'tsyringe';

/** How long background work waits at most for the requests being answered, so that a steady stream of them cannot starve it. */
const MAX_WAIT_MS = 250;

/** How long a request counts as one being answered at most. */
const FOREGROUND_MS = 1_000;

/**
 * How long the server must have answered nothing, once the graph it serves at the start is serialized, before the
 * start's background work (the plugins' loads, the model behind a saved graph) begins: a client that asks as soon as
 * the URL is out is answered first.
 */
export const FIRST_CLIENTS_MS = 150;

/**
 * The requests the server is answering, so that work in the background on the
 * server's thread (the model made behind a served graph, plugins starting)
 * waits while any is: a request that arrives during
 * such work is answered at the speed of the thread, not a slice at a time
 * between the work's steps. An event stream counts until its headers are out
 * (`settled`), not for as long as it stays open. Requests never hold it
 * back longer than `MAX_WAIT_MS` in a row.
 */
@injectable()
export class ForegroundRequests {
  /** The responses being answered. */
  private readonly responses = new Set<ServerResponse>();
  /** Work held for the clients to come (`hold`). */
  private readonly held = new Set<object>();
  private lastEnded = 0;
  private readonly waiters = new Set<() => void>();

  /**
   * A request arrives: it counts until its response closes, until `settled`, or for `FOREGROUND_MS` at most (a
   * request that takes longer, an apply that waits for its plugin, is waiting on work, not on this thread, and
   * background work that it may itself wait for gets its turns again).
   */
  track(response: ServerResponse): void {
    this.responses.add(response);
    const aged = setTimeout(() => this.settled(response), FOREGROUND_MS);
    aged.unref();
    response.once('close', () => {
      clearTimeout(aged);
      this.settled(response);
    });
  }

  /**
   * Work for the clients that are to come (the graph serialized ahead of them, right after the start): until the
   * function returned is called, background work waits as for a request, and with no bound (the work ends by
   * itself); the quiet that `whenQuiet` asks for counts from its end.
   */
  hold(): () => void {
    const work = {};
    this.held.add(work);
    return () => this.ended(this.held.delete(work));
  }

  /** The response needs no more of the thread's priority (an event stream, once open). */
  settled(response: ServerResponse): void {
    this.ended(this.responses.delete(response));
  }

  /** Whether a request is being answered (or work held for one) now. */
  get busy(): boolean {
    return this.responses.size > 0 || this.held.size > 0;
  }

  /**
   * Resolves once no request is being answered and none has ended for `quietMs` (a client that asks again right
   * after an answer, as a page does, is answered first): after held work in full, but after `MAX_WAIT_MS` at most
   * of requests, however many come.
   */
  whenQuiet(quietMs = 0): Promise<void> {
    if (!this.busy && performance.now() - this.lastEnded >= quietMs) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let deadline: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        clearTimeout(deadline);
        this.waiters.delete(check);
        resolve();
      };
      const check = (): void => {
        clearTimeout(timer);
        if (this.held.size > 0) return;
        deadline ??= setTimeout(done, MAX_WAIT_MS);
        if (this.responses.size > 0) return;
        const quiet = performance.now() - this.lastEnded;
        if (quiet >= quietMs) return done();
        timer = setTimeout(check, quietMs - quiet);
      };
      this.waiters.add(check);
      check();
    });
  }

  private ended(removed: boolean): void {
    if (!removed) return;
    this.lastEnded = performance.now();
    if (!this.busy) for (const wake of [...this.waiters]) wake();
  }
}

/** What no server answers: never busy (the CLI's own index, a build outside a server). */
export const NO_FOREGROUND_REQUESTS = new ForegroundRequests();
