import type { ApplyProgress } from './protocol.js';

/** Progress reports pass at most this often (five a second), each counted from the one before. */
export const PROGRESS_EVERY_MS = 200;

/** The longest `message` of a report passed on, in characters. */
const MAX_MESSAGE = 200;

/**
 * Passes an apply's progress reports on at most once every
 * `PROGRESS_EVERY_MS`, whatever they say (a report of done equal to total
 * included): a report that comes sooner is held, replaced by any later one,
 * and passed on when the time has come, or by `flush` when the apply ends.
 * So the last report always gets through, and a plugin that reports in a
 * tight loop sends five a second. Used on both sides of the sandbox
 * process's channel: what comes from the isolate is not trusted to be
 * throttled, or well formed, already (a report that is not is dropped).
 */
export class ProgressThrottle {
  private passedAt = Number.NEGATIVE_INFINITY;
  private held: ApplyProgress | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly pass: (progress: ApplyProgress) => void) {}

  /** Takes a report: `{done, total?, message?}`, done and total finite and at least 0. */
  report(progress: unknown): void {
    const checked = wellFormed(progress);
    if (!checked) return;
    this.held = checked;
    if (!this.timer) this.passWhenDue();
  }

  /** Passes the held report, if any, now (the apply ended), and stops. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const held = this.held;
    this.held = undefined;
    if (held) this.pass(held);
  }

  private passWhenDue(): void {
    // Timers may fire early by the age of the event loop's clock: the time left is measured again each time.
    const wait = this.passedAt + PROGRESS_EVERY_MS - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.passWhenDue();
      }, Math.ceil(wait));
      return;
    }
    const held = this.held;
    this.held = undefined;
    if (!held) return;
    this.passedAt = performance.now();
    this.pass(held);
  }
}

/** A copy of `value` as a report, or undefined when it is not one. */
function wellFormed(value: unknown): ApplyProgress | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { done, total, message } = value as Record<string, unknown>;
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!count(done) || (total !== undefined && !count(total)) || (message !== undefined && typeof message !== 'string')) return undefined;
  return { done, ...(total !== undefined && { total }), ...(message !== undefined && { message: message.slice(0, MAX_MESSAGE) }) };
}
