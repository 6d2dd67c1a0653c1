import type { BlameRange, GitCommit } from '@strata/sdk';

/**
 * Parsers of the git output the capabilities ask for. They run in the git
 * process (git-process.ts), next to the git runs whose output they read.
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

/** The `git log` format of the history passes of `parseSoleAuthorship`: a commit's hash, author (after `.mailmap`) and time. */
export const GIT_AUTHORSHIP_FORMAT = '--format=%x1e%H%x1f%aN%x1f%aE%x1f%at';

/** Who made a commit, as blame names it. */
export interface CommitAuthor {
  authorName: string;
  authorEmail: string;
  /** Author date, ISO 8601. */
  date: string;
}

/**
 * Files whose every line one commit wrote: the commit that added each, by
 * path, with its author; and the commits that must still be asked whether
 * an added file was a rename (they deleted files as well).
 */
export interface SoleAuthorship {
  files: Array<[path: string, hash: string]>;
  authors: Array<[hash: string, author: CommitAuthor]>;
  /** Commits that added a candidate and deleted files too: a deleted file may be the candidate's old name. */
  toCheck: string[];
}

const COMMIT_HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

/** Most pairs of (deleted or changed file, added file) a rename check may weigh in one commit: git's own default limit, squared. */
export const RENAME_CHECK_LIMIT = 1000;

/**
 * Reads `git log --cc --no-renames --name-status -z` with
 * GIT_AUTHORSHIP_FORMAT over the whole history of HEAD, and keeps the paths
 * that exactly one commit touched, by adding them (status `A`, not in a
 * merge). Merges show only what differs from every parent (`--cc`): a file
 * a merge changed on its own counts as touched by the merge. Such a file's
 * blame at HEAD gives all its lines to that commit, unless git sees it as a
 * rename of a file the same commit deleted (blame follows renames): commits
 * with deletions are returned to be checked (`parseRenamedPaths`); those
 * whose check would pass git's rename limit lose their candidates instead.
 */
export function parseSoleAuthorship(output: string): SoleAuthorship {
  const touches = new Map<string, number>();
  /** The oldest commit that touched each path (log runs newest first), and how. */
  const oldest = new Map<string, { hash: string; status: string }>();
  const authors = new Map<string, CommitAuthor>();
  const shape = new Map<string, { deleted: number; changed: number; added: number }>();
  for (const record of output.split('\x1e')) {
    if (record.trim() === '') continue;
    const tokens = record.split('\0');
    const [hash = '', authorName = '', authorEmail = '', time = '0'] = tokens[0]!.split('\x1f');
    // Not a commit's header: the rest of a path that held the record separator (its record lost the path too).
    if (!COMMIT_HASH.test(hash)) continue;
    authors.set(hash, { authorName, authorEmail, date: new Date(Number(time) * 1000).toISOString() });
    const counts = { deleted: 0, changed: 0, added: 0 };
    shape.set(hash, counts);
    // After the header, a newline (or, for a merge, an empty token) before the first status.
    let first = 1;
    while (first < tokens.length && tokens[first]!.replace(/^\n/, '') === '') first++;
    for (let i = first; i + 1 < tokens.length; i += 2) {
      const status = tokens[i]!.replace(/^\n/, '');
      const file = tokens[i + 1]!;
      if (status === '') break;
      touches.set(file, (touches.get(file) ?? 0) + 1);
      oldest.set(file, { hash, status });
      if (status === 'D') counts.deleted++;
      else if (status === 'A') counts.added++;
      else counts.changed++;
    }
  }
  const files: Array<[string, string]> = [];
  const toCheck = new Set<string>();
  const used = new Set<string>();
  for (const [file, count] of touches) {
    const origin = oldest.get(file)!;
    if (count !== 1 || origin.status !== 'A') continue;
    const counts = shape.get(origin.hash)!;
    if (counts.deleted > 0) {
      // git weighs every deleted or changed file against every added one; past its limit it skips that and would say
      // "added" of a rename: such a commit's files are left to blame itself.
      if ((counts.deleted + counts.changed) * counts.added > RENAME_CHECK_LIMIT * RENAME_CHECK_LIMIT) continue;
      toCheck.add(origin.hash);
    }
    files.push([file, origin.hash]);
    used.add(origin.hash);
  }
  return { files, authors: [...authors].filter(([hash]) => used.has(hash)), toCheck: [...toCheck] };
}

/**
 * Reads `git log --no-walk -C --name-status -z` of some commits: the paths
 * git sees as renamed or copied there (their destinations). With copies
 * found, a source may serve many destinations, so an added file similar
 * enough to any deleted one shows here, as it would to blame's own search.
 */
export function parseRenamedPaths(output: string): string[] {
  const renamed: string[] = [];
  for (const record of output.split('\x1e')) {
    const tokens = record.split('\0');
    let first = 1;
    while (first < tokens.length && tokens[first]!.replace(/^\n/, '') === '') first++;
    for (let i = first; i < tokens.length; i++) {
      const status = tokens[i]!.replace(/^\n/, '');
      if (status === '') break;
      if (status.startsWith('R') || status.startsWith('C')) {
        renamed.push(tokens[i + 2] ?? '');
        i += 2;
      } else {
        i += 1;
      }
    }
  }
  return renamed;
}
