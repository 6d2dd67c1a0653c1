/**
 * A deadline that stops counting while it is paused: an apply's wall time
 * runs while the plugin works or waits on itself, and stands still while
 * the host works for it (a blame of ten thousand files is the host's time,
 * not the plugin's). `used` says how much of it has gone.
 */
export class PausableDeadline {
  private usedMs = 0;
  private runningSince: number | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ended = false;

  constructor(
    private readonly limitMs: number,
    private readonly onExpired: () => void,
  ) {
    this.resume();
  }

  /** Milliseconds counted so far. */
  get used(): number {
    return this.usedMs + (this.runningSince === undefined ? 0 : performance.now() - this.runningSince);
  }

  pause(): void {
    if (this.ended || this.runningSince === undefined) return;
    this.usedMs += performance.now() - this.runningSince;
    this.runningSince = undefined;
    clearTimeout(this.timer);
  }

  resume(): void {
    if (this.ended || this.runningSince !== undefined) return;
    this.runningSince = performance.now();
    this.timer = setTimeout(
      () => {
        this.ended = true;
        this.onExpired();
      },
      Math.max(0, this.limitMs - this.usedMs),
    );
  }

  /** Stops it for good: it never expires after this. */
  cancel(): void {
    this.ended = true;
    clearTimeout(this.timer);
  }
}
