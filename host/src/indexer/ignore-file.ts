import ignore, { type Ignore } from 'ignore';
import type { SkippedEntry } from '../graph/code-graph.js';

/**
 * How much of one ignore file is used. The repository is untrusted: one
 * pattern of 100,000 characters made the regular expression engine throw
 * ("Regular expression too large") on every path, and every rule is tested
 * against every path listed that git does not track (ignore 7 runs the rules
 * one by one: 0.3 to 0.5 ms a path with 1,000 rules, 10 to 16 ms with
 * 10,000). Past these bounds the rest is left out and said so; the largest
 * of GitHub's `.gitignore` templates has about 400 rules.
 */
export const IGNORE_FILE_LIMITS = {
  /** Bytes read of one file; the lines after are not read. */
  bytes: 256 * 1024,
  /** Rules used of one file; those after are left out. */
  rules: 2_000,
  /**
   * Characters of one pattern. No path is longer than this (Linux's
   * PATH_MAX), and the shortest pattern the engine refused was over three
   * times as long (13,858 characters of `a*`, with ignore 7 on Node 24).
   */
  patternCharacters: 4096,
} as const;

/**
 * The rules of one ignore file (`.gitignore`, `.git/info/exclude`), read as
 * git reads them, line by line, leaving out the lines that cannot be used;
 * `problems` says which and why, naming the file and the line.
 */
export class IgnoreFile {
  readonly problems: SkippedEntry[] = [];
  private rules: Ignore;
  /** The lines used, by their line number (for a rebuild without one that fails). */
  private readonly used: Array<{ line: number; text: string }> = [];

  constructor(
    /** Repository-relative path, for the problems. */
    readonly file: string,
    text: string,
  ) {
    if (text.length > IGNORE_FILE_LIMITS.bytes) {
      this.problems.push({ path: file, reason: `ignore file over ${IGNORE_FILE_LIMITS.bytes} bytes: the lines after that are left out` });
      text = text.slice(0, IGNORE_FILE_LIMITS.bytes);
    }
    const lines = text.split(/\r?\n/);
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index]!;
      // Blank lines and comments are no rules (ignore reads them so too).
      if (line.trim() === '' || line.startsWith('#')) continue;
      if (this.used.length === IGNORE_FILE_LIMITS.rules) {
        this.problems.push({ path: file, reason: `more than ${IGNORE_FILE_LIMITS.rules} ignore rules: those from line ${index + 1} on are left out` });
        break;
      }
      if (line.length > IGNORE_FILE_LIMITS.patternCharacters) {
        this.leaveOut(index + 1, `${line.length} characters, longer than any path can be (${IGNORE_FILE_LIMITS.patternCharacters})`);
        continue;
      }
      this.used.push({ line: index + 1, text: line });
    }
    this.rules = ignore().add(this.used.map((used) => used.text));
  }

  /** What the rules say of a path relative to the file's directory (a directory's ends with `/`). */
  test(relativePath: string): { ignored: boolean; unignored: boolean } {
    try {
      return this.rules.test(relativePath);
    } catch {
      // A pattern the engine refuses when it first runs (the length bound should keep any from it): each is
      // compiled alone, once, and those that fail are left out.
      this.rules = this.withoutFailingLines();
      return this.rules.test(relativePath);
    }
  }

  private withoutFailingLines(): Ignore {
    const rules = ignore();
    for (let k = this.used.length - 1; k >= 0; k--) {
      const { line, text } = this.used[k]!;
      try {
        ignore().add(text).test('a');
      } catch (error) {
        this.leaveOut(line, `it cannot be compiled (${reasonOf(error as Error)})`);
        this.used.splice(k, 1);
      }
    }
    this.problems.sort((a, b) => lineOf(a) - lineOf(b));
    return rules.add(this.used.map((used) => used.text));
  }

  private leaveOut(line: number, why: string): void {
    this.problems.push({ path: this.file, reason: `ignore rule on line ${line} left out: ${why}` });
  }
}

/** The engine's reason, without the pattern it quotes (`Invalid regular expression: /…/i: Regular expression too large`). */
function reasonOf(error: Error): string {
  const message = String(error.message);
  return message.slice(message.lastIndexOf(': ') + 2).slice(0, 200);
}

function lineOf(problem: SkippedEntry): number {
  return Number(/line (\d+)/.exec(problem.reason)?.[1] ?? Infinity);
}
