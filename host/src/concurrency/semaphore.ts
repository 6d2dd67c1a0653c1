/** At most `size` holders at once; the others wait in order (and leave the queue when their signal aborts). */
export class Semaphore {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  /** Resolves with the function that releases the slot; rejects with `whenAborted()` if `signal` aborts first. */
  async acquire(signal?: AbortSignal, whenAborted: () => Error = () => new Error('aborted while waiting')): Promise<() => void> {
    if (this.free > 0) this.free--;
    else {
      await new Promise<void>((resolve, reject) => {
        const wake = (): void => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = (): void => {
          const index = this.waiting.indexOf(wake);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(whenAborted());
        };
        if (signal?.aborted) return leave();
        signal?.addEventListener('abort', leave, { once: true });
        this.waiting.push(wake);
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}
