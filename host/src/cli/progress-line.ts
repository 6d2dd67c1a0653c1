import type { BuildProgress } from '../graph/graph-source.js';

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
