import type { ServerResponse } from 'node:http';
import { injectable } from 'tsyringe';

/** How long background work waits at most for the requests being answered, so that a steady stream of them cannot starve it. */
const MAX_WAIT_MS = 250;

/**
 * How long the server must have answered nothing, from its start on, before the start's background work (the
 * plugins' loads, the model behind a saved graph) begins: a client that asks as soon as the URL is out is answered
 * first. Bounded like every wait here.
 */
export const FIRST_CLIENTS_MS = 150;

/**
 * The requests the server is answering, so that work in the background on the
 * server's thread (the model made behind a served graph, plugins starting,
 * columns made in slices) waits while any is: a request that arrives during
 * such work is answered at the speed of the thread, not a slice at a time
 * between the work's steps. An event stream counts until its headers are out
 * (`settled`), not for as long as it stays open. Never waits longer than
 * `MAX_WAIT_MS` in a row.
 */
@injectable()
export class ForegroundRequests {
  private readonly answering = new Set<ServerResponse>();
  private lastEnded = 0;
  private readonly waiters = new Set<() => void>();

  /** A request arrives: it counts until its response closes, or until `settled`. */
  track(response: ServerResponse): void {
    this.answering.add(response);
    response.once('close', () => this.settled(response));
  }

  /** The response needs no more of the thread's priority (an event stream, once open). */
  settled(response: ServerResponse): void {
    if (!this.answering.delete(response)) return;
    this.lastEnded = performance.now();
    if (this.answering.size === 0) for (const wake of [...this.waiters]) wake();
  }

  /**
   * The server has just begun to serve (its URL is out): background work that waits for quiet waits for the
   * first clients too, as if a request had just ended.
   */
  servingBegins(): void {
    this.lastEnded = performance.now();
  }

  /** Whether a request is being answered now. */
  get busy(): boolean {
    return this.answering.size > 0;
  }

  /**
   * Resolves once no request is being answered and none has ended for `quietMs` (a client that asks again right
   * after an answer, as a page does, is answered first), or after `MAX_WAIT_MS` however busy the server is.
   */
  whenQuiet(quietMs = 0): Promise<void> {
    const quietFor = (): number => (this.answering.size > 0 ? 0 : performance.now() - this.lastEnded);
    if (quietFor() >= quietMs) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = (): void => {
        clearTimeout(timer);
        clearTimeout(deadline);
        this.waiters.delete(check);
        resolve();
      };
      const check = (): void => {
        clearTimeout(timer);
        const quiet = quietFor();
        if (this.answering.size > 0) return;
        if (quiet >= quietMs) return done();
        timer = setTimeout(check, quietMs - quiet);
      };
      const deadline = setTimeout(done, MAX_WAIT_MS);
      this.waiters.add(check);
      check();
    });
  }
}

/** What no server answers: never busy (the CLI's own index, a build outside a server). */
export const NO_FOREGROUND_REQUESTS = new ForegroundRequests();
