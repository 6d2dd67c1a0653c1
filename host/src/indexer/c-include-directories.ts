import path from 'node:path';
import type { RepositoryFiles } from './language-import-resolver.js';
import { readOptional } from './read-optional.js';

/** Where a compilation database is looked for, in this order (the first that parses wins). */
export const COMPILATION_DATABASES = ['compile_commands.json', 'build/compile_commands.json'] as const;
/** A directory named so is taken for an include directory when there is no compilation database. */
const INCLUDE_DIRECTORY = 'include';

/** The include directories of one file, as GCC searches them (repository paths, `''` for the root). */
export interface IncludePath {
  /** `-iquote` directories: searched for `#include "..."` only, after the including file's directory. */
  quote: readonly string[];
  /** `-I` then `-isystem` directories (or the guesses): searched for both forms. */
  angle: readonly string[];
}

/**
 * The include directories of a repository's C and C++ files: those a
 * compilation database (`compile_commands.json` at the root or in `build/`,
 * as CMake writes it with `CMAKE_EXPORT_COMPILE_COMMANDS`) gives each file
 * (`-I`, `-iquote`, `-isystem`, relative to the entry's `directory`;
 * directories outside the repository are left out), and, for a file it has
 * no entry for (a header), the directories of every entry in their order;
 * without a database (or with one that names none of the repository's
 * files: another checkout's), the guesses: the `include/` directories above the
 * file (nearest first), every other `include/` directory of the repository,
 * then the repository's root.
 */
export class CIncludeDirectories {
  private constructor(
    private readonly byFile: ReadonlyMap<string, IncludePath>,
    private readonly all: IncludePath,
    /** The `include/` directories, when there is no database. */
    private readonly guessed: readonly string[] | undefined,
    /** What this was made from, to tell whether a change changed it. */
    private readonly fingerprint: string,
  ) {}

  static discover(root: string, repository: RepositoryFiles): CIncludeDirectories {
    for (const database of COMPILATION_DATABASES) {
      const text = readOptional(root, path.join(root, database));
      if (text === undefined) continue;
      const parsed = parseDatabase(root, text);
      if (parsed) return new CIncludeDirectories(parsed.byFile, parsed.all, undefined, `${database}\n${text}`);
    }
    const guessed = new Set<string>();
    for (const file of repository.filePaths()) {
      // Most paths have no such folder: split only those that may (26 ms of typescript-eslint's 7,515 files otherwise).
      if (!file.includes(`${INCLUDE_DIRECTORY}/`)) continue;
      const segments = file.split('/');
      for (let i = 0; i < segments.length - 1; i++) if (segments[i] === INCLUDE_DIRECTORY) guessed.add(segments.slice(0, i + 1).join('/'));
    }
    const sorted = [...guessed].sort();
    return new CIncludeDirectories(new Map(), { quote: [], angle: [] }, sorted, sorted.join('\n'));
  }

  equals(other: CIncludeDirectories): boolean {
    return this.fingerprint === other.fingerprint;
  }

  /** Whether the directories come from a compilation database. */
  get fromDatabase(): boolean {
    return this.guessed === undefined;
  }

  /** The include directories of `file`. */
  of(file: string): IncludePath {
    if (this.guessed === undefined) return this.byFile.get(file) ?? this.all;
    const above: string[] = [];
    const segments = file.split('/');
    for (let i = segments.length - 1; i >= 0; i--) {
      const directory = [...segments.slice(0, i), INCLUDE_DIRECTORY].join('/');
      if (this.guessed.includes(directory) && !above.includes(directory)) above.push(directory);
    }
    return { quote: [], angle: [...above, ...this.guessed.filter((directory) => !above.includes(directory)), ''] };
  }
}

interface DatabaseEntry {
  directory?: unknown;
  file?: unknown;
  arguments?: unknown;
  command?: unknown;
}

function parseDatabase(root: string, text: string): { byFile: Map<string, IncludePath>; all: IncludePath } | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  const byFile = new Map<string, IncludePath>();
  const allQuote = new Set<string>();
  const allAngle = new Set<string>();
  for (const entry of entries as DatabaseEntry[]) {
    if (typeof entry !== 'object' || entry === null || typeof entry.file !== 'string') continue;
    const directory = typeof entry.directory === 'string' ? path.resolve(root, entry.directory) : root;
    const args = Array.isArray(entry.arguments)
      ? entry.arguments.filter((arg): arg is string => typeof arg === 'string')
      : typeof entry.command === 'string'
        ? splitCommand(entry.command)
        : [];
    const quote: string[] = [];
    const included: string[] = [];
    const system: string[] = [];
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      for (const [flag, list] of [
        ['-iquote', quote],
        ['-isystem', system],
        ['-I', included],
      ] as const) {
        if (!arg.startsWith(flag)) continue;
        const value = arg.length > flag.length ? arg.slice(flag.length) : args[++i];
        const inside = value === undefined ? undefined : repositoryPath(root, path.resolve(directory, value));
        if (inside !== undefined && !list.includes(inside)) list.push(inside);
        break;
      }
    }
    const file = repositoryPath(root, path.resolve(directory, entry.file));
    const angle = [...included, ...system.filter((entry) => !included.includes(entry))];
    if (file !== undefined && !byFile.has(file)) byFile.set(file, { quote, angle });
    for (const entry of quote) allQuote.add(entry);
    for (const entry of angle) allAngle.add(entry);
  }
  // A database of another checkout (absolute paths elsewhere) says nothing of this one's files: the guesses serve better.
  if (byFile.size === 0) return undefined;
  return { byFile, all: { quote: [...allQuote], angle: [...allAngle] } };
}

/** `absolute` as a repository path, or undefined when it is outside the repository. */
function repositoryPath(root: string, absolute: string): string | undefined {
  const relative = path.relative(root, absolute).split(path.sep).join('/');
  return relative === '..' || relative.startsWith('../') || path.isAbsolute(relative) ? undefined : relative;
}

/** A shell command's words, as a compilation database's `command` writes them (quotes and backslashes; nothing expanded). */
function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < command.length) word += command[++i];
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
