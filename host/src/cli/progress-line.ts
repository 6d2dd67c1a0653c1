import type { BuildProgress } from '../graph/graph-source.js';
import { escapeControlCharacters } from '../logging/escape-control-characters.js';

const PHASE_WORDS: Record<BuildProgress['phase'], string> = {
  listing: 'listing files',
  reading: 'reading files',
  resolving: 'resolving imports',
};

/**
 * Shows indexing progress on standard error: one line rewritten in place on
 * a terminal, one line per phase elsewhere (logs, CI).
 */
export class ProgressLine {
  private lastPhase: string | undefined;
  private lastDraw = 0;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update = (progress: BuildProgress): void => {
    const text = `Indexing: ${PHASE_WORDS[progress.phase]}${progress.total !== undefined ? ` ${progress.done}/${progress.total}` : ''}`;
    if (this.stream.isTTY) {
      const now = Date.now();
      if (now - this.lastDraw < 50 && progress.phase === this.lastPhase) return;
      this.lastDraw = now;
      this.stream.write(`\r\x1b[K${text}`);
    } else if (progress.phase !== this.lastPhase) {
      this.stream.write(`Indexing: ${PHASE_WORDS[progress.phase]}\n`);
    }
    this.lastPhase = progress.phase;
  };

  /** Ends the progress display. */
  done(): void {
    if (this.stream.isTTY && this.lastPhase) this.stream.write('\r\x1b[K');
  }
}

/** How far an apply has come, as an overlay's status says it. */
interface ApplyStatusProgress {
  state?: string;
  progress?: { done: number; total?: number; message?: string } | null;
}

/** How often the status is asked while an apply runs. */
const APPLY_POLL_MS = 500;
/** Without a terminal, a line at most this often (and when the share done crosses a tenth). */
const APPLY_LOG_EVERY_MS = 10_000;

/**
 * Shows a long apply's progress on standard error, from the overlay's
 * status asked twice a second: "Applying ownership: 4,200/10,000 files
 * blamed · 38 s", rewritten in place on a terminal; elsewhere (logs, CI) a
 * line each time another tenth is done, or every ten seconds.
 */
export class ApplyProgressLine {
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private last: ApplyStatusProgress['progress'] = null;
  private lastLine = 0;
  private lastTenth = -1;
  private stopped = false;

  constructor(
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  /** Asks `read` for the status from now on (a server's, or this process's own). Failed reads are skipped. */
  follow(read: () => Promise<ApplyStatusProgress>): void {
    clearInterval(this.timer);
    if (this.stopped) return;
    let reading = false;
    this.timer = setInterval(() => {
      if (reading) return;
      reading = true;
      read()
        .then((status) => {
          if (!this.stopped && status.state === 'applying') this.show(status.progress ?? null);
        })
        .catch(() => undefined)
        .finally(() => {
          reading = false;
        });
    }, APPLY_POLL_MS);
    this.timer.unref();
  }

  /** Ends the display. */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.timer);
    if (this.stream.isTTY && this.lastLine > 0) this.stream.write('\r\x1b[K');
  }

  private show(progress: ApplyStatusProgress['progress']): void {
    if (progress) this.last = progress;
    const seconds = Math.round((Date.now() - this.started) / 1000);
    const now = this.last;
    const amount = now
      ? `${now.done.toLocaleString('en-US')}${now.total !== undefined ? `/${now.total.toLocaleString('en-US')}` : ''}${now.message ? ` ${now.message}` : ''} · `
      : '';
    // The message is the plugin's, the label names it: shown, never obeyed by the terminal.
    const text = escapeControlCharacters(`${this.label}: ${amount}${seconds} s`);
    if (this.stream.isTTY) {
      this.stream.write(`\r\x1b[K${text}`);
      this.lastLine = Date.now();
      return;
    }
    const tenth = now?.total ? Math.floor((10 * now.done) / now.total) : -1;
    if (tenth > this.lastTenth || Date.now() - this.lastLine >= APPLY_LOG_EVERY_MS) {
      this.lastTenth = Math.max(this.lastTenth, tenth);
      this.lastLine = Date.now();
      this.stream.write(`${text}\n`);
    }
  }
}
