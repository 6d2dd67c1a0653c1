import type { BlameRange, GitCommit } from '@strata/sdk';

/**
 * Parsers of the git output the capabilities ask for. They run in the git
 * threads (git-worker.ts), next to the processes whose output they read.
 */

/** The `git log` format the capability asks for: one record per commit, fields by unit separators. */
export const GIT_LOG_FORMAT = '--format=%x1e%H%x1f%aN%x1f%aE%x1f%aI%x1f%s';

/** Parses `git log -z --numstat` with GIT_LOG_FORMAT. */
export function parseGitLog(output: string): GitCommit[] {
  const commits: GitCommit[] = [];
  for (const record of output.split('\x1e')) {
    if (record.trim() === '') continue;
    // With -z the header ends with NUL; numstat lines follow, NUL-terminated.
    const tokens = record.split('\0');
    const [hash, authorName, authorEmail, date, subject] = tokens.shift()!.split('\x1f');
    const files: GitCommit['files'] = [];
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!.replace(/^\n/, '');
      if (token === '') continue;
      const match = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(token);
      if (!match) continue;
      const binary = match[1] === '-';
      const added = binary ? 0 : Number(match[1]);
      const deleted = binary ? 0 : Number(match[2]);
      if (match[3] === '') {
        // A rename: the old and the new path follow as their own tokens.
        const previousPath = tokens[++i] ?? '';
        const newPath = tokens[++i] ?? '';
        files.push({ path: newPath, previousPath, added, deleted, binary });
      } else {
        files.push({ path: match[3]!, added, deleted, binary });
      }
    }
    commits.push({ hash: hash ?? '', authorName: authorName ?? '', authorEmail: authorEmail ?? '', date: date ?? '', subject: subject ?? '', files });
  }
  return commits;
}

/**
 * Parses `git blame --porcelain` into runs of consecutive lines from one
 * commit. Each line has a header (`<hash> <original line> <final line>`); a
 * commit's author follows its first header only (`--line-porcelain` repeats
 * it for every line: about ten times the output for git to write and for
 * this to read).
 */
export function parseBlame(output: string): BlameRange[] {
  const ranges: BlameRange[] = [];
  const authors = new Map<string, { authorName: string; authorEmail: string; date: string }>();
  let hash = '';
  let lineNumber = 0;
  let author: { authorName: string; authorEmail: string; time: number } | undefined;
  const settleAuthor = (): void => {
    if (!author) return;
    authors.set(hash, { authorName: author.authorName, authorEmail: author.authorEmail, date: new Date(author.time * 1000).toISOString() });
    author = undefined;
  };
  for (const line of output.split('\n')) {
    if (line.startsWith('\t')) {
      settleAuthor();
      const last = ranges.at(-1);
      if (last && last.hash === hash && last.startLine + last.lineCount === lineNumber) {
        last.lineCount++;
      } else {
        const known = authors.get(hash) ?? { authorName: '', authorEmail: '', date: new Date(0).toISOString() };
        ranges.push({ startLine: lineNumber, lineCount: 1, hash, ...known });
      }
      continue;
    }
    const header = /^([0-9a-f]{40}) \d+ (\d+)/.exec(line);
    if (header) {
      hash = header[1]!;
      lineNumber = Number(header[2]);
      if (!authors.has(hash)) author = { authorName: '', authorEmail: '', time: 0 };
    } else if (author) {
      if (line.startsWith('author ')) author.authorName = line.slice(7);
      else if (line.startsWith('author-mail ')) author.authorEmail = line.slice(12).replace(/^<|>$/g, '');
      else if (line.startsWith('author-time ')) author.time = Number(line.slice(12));
    }
  }
  return ranges;
}
