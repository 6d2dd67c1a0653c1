import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** How `generateRepo` shapes its files. */
export interface GeneratedShape {
  /** Files to a directory (20). */
  filesPerDirectory?: number;
  /** Bytes a file grows to at least, with ordinary code (functions, loops, comments) after its imports; 0: none. */
  fileBytes?: number;
  /** Relative imports a file has at least (0; at most three more). */
  minImports?: number;
}

/**
 * Writes a code-like repository of about `nodeCount` graph nodes: a tree of
 * directories, 20 TypeScript files to a directory (`shape`), each importing
 * up to three others, mostly nearby. Deterministic for a given size and shape.
 */
export function generateRepo(root: string, nodeCount: number, shape: GeneratedShape = {}): { files: number; directories: number } {
  const filesPerDirectory = shape.filesPerDirectory ?? 20;
  const fileBytes = shape.fileBytes ?? 0;
  const minImports = shape.minImports ?? 0;
  const fanOut = 8;
  const directoryCount = Math.max(1, Math.round(nodeCount / (filesPerDirectory + 1)));
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const directories: string[] = [''];
  for (let i = 1; i < directoryCount; i++) {
    const parent = directories[Math.floor((i - 1) / fanOut)]!;
    directories.push(parent === '' ? `pkg${i}` : `${parent}/mod${i}`);
  }
  const files: string[] = [];
  for (const directory of directories) {
    mkdirSync(path.join(root, directory), { recursive: true });
    for (let f = 0; f < filesPerDirectory && directories.length + files.length < nodeCount; f++)
      files.push(directory === '' ? `file${f}.ts` : `${directory}/file${f}.ts`);
  }
  files.forEach((file, index) => {
    const lines: string[] = [];
    const imports = minImports + Math.floor(random() * 4);
    for (let k = 0; k < imports; k++) {
      // Mostly local: a file in the same directory or close by in the listing.
      const near = random() < 0.8;
      const target = files[near ? Math.min(files.length - 1, Math.max(0, index + Math.floor((random() - 0.5) * 40))) : Math.floor(random() * files.length)]!;
      if (target === file) continue;
      let specifier = path.posix.relative(path.posix.dirname(file), target).replace(/\.ts$/, '.js');
      if (!specifier.startsWith('.')) specifier = `./${specifier}`;
      lines.push(`import { value as v${k} } from '${specifier}';`);
    }
    lines.push(`export const value = ${index};`, `export function f${index}(x: number): number {`, '  return x + value;', '}', '');
    let text = lines.join('\n');
    if (text.length < fileBytes) {
      // One function more, its body as long as it takes: the file's size without a graph node per block.
      text += `/** The work of file ${index}, step by step. */\nexport function work${index}(items: readonly { label: string; weight: number }[]): number {\n  let sum = 0;\n`;
      for (let k = 0; text.length < fileBytes - 20; k++) text += codeBlock(k);
      text += '  return sum;\n}\n';
    }
    writeFileSync(path.join(root, file), text);
  });
  return { files: files.length, directories: directories.length };
}

/** About 300 bytes of a function body: a comment, a loop with a branch. */
function codeBlock(k: number): string {
  return [
    `  // Step ${k}: the items under the limit, weighted, with one more for a long label.`,
    `  for (const item of items) {`,
    `    if (item.weight > ${k + 10}) continue;`,
    `    sum += item.weight * ${(k % 7) + 1} + (item.label.length > ${(k % 5) + 2} ? 1 : 0);`,
    '  }',
    '',
  ].join('\n');
}

/** The languages of a mixed repository besides TypeScript, each a project of its own in a top-level directory. */
export const MIXED_LANGUAGES = ['python', 'go', 'rust', 'java', 'kotlin', 'csharp', 'ruby', 'php', 'c', 'cpp'] as const;
export type MixedLanguage = (typeof MIXED_LANGUAGES)[number];

/** What `generateMixedRepo` wrote of a language. */
export interface MixedLanguageFiles {
  files: number;
  bytes: number;
  directories: number;
  /** An ordinary file of it (it imports others) that a benchmark can edit. */
  sample: string;
  /** A function (or class) declaring `name`, valid appended to the end of the sample. */
  declaration: (name: string) => string;
}

/**
 * Writes a mixed repository of about `fileCount` files: half of them
 * TypeScript, exactly as `generateRepo` writes them (at the root: `pkg1/`,
 * `pkg1/mod9/`, …), the other half spread evenly over the ten
 * `MIXED_LANGUAGES`, each a project of its own under a directory named
 * after it (`python/`, `go/`, …) with its manifest (pyproject.toml, go.mod,
 * Cargo.toml, pom.xml, composer.json, …) and the same tree of directories
 * (8 to a directory, 20 files to one). Each file is code-like: imports of
 * up to three other files of its language, mostly nearby, written the way
 * that language's resolver resolves them (Python's relative and absolute
 * package imports, Go's package directories, Java's and Kotlin's classes,
 * C#'s namespaces, Rust's `mod` declarations and `use crate::`, Ruby's
 * `require_relative`, PHP's PSR-4 `use` and `require_once __DIR__`, C's
 * and C++'s `#include "…"`), a few of the standard library, a constant, a
 * function with a loop and a branch, often a class. With `languages`, only
 * those (`typescript` among them or not), the files spread evenly over
 * them. Deterministic for given arguments; each language's files depend
 * only on its own count.
 */
export function generateMixedRepo(
  root: string,
  fileCount: number,
  languages: ReadonlyArray<'typescript' | MixedLanguage> = ['typescript', ...MIXED_LANGUAGES],
): { files: number; directories: number; languages: Partial<Record<'typescript' | MixedLanguage, MixedLanguageFiles>> } {
  const others = MIXED_LANGUAGES.filter((language) => languages.includes(language));
  const written: Partial<Record<'typescript' | MixedLanguage, MixedLanguageFiles>> = {};
  let files = 0;
  let directories = 0;
  let rest = fileCount;
  if (languages.includes('typescript')) {
    const share = others.length > 0 ? Math.round(fileCount / 2) : fileCount;
    const ts = generateRepo(root, Math.round((share * 21) / 20));
    let bytes = 0;
    for (const directory of tsDirectories(ts.directories)) {
      for (let f = 0; f < 20; f++) {
        try {
          bytes += statSync(path.join(root, directory, `file${f}.ts`)).size;
        } catch {
          break;
        }
      }
    }
    written.typescript = {
      files: ts.files,
      bytes,
      directories: ts.directories,
      sample: 'pkg1/file3.ts',
      declaration: (name) => `export function ${name}() { return 1; }\n`,
    };
    files += ts.files;
    directories += ts.directories;
    rest -= ts.files;
  }
  others.forEach((language, i) => {
    const count = Math.floor(rest / others.length) + (i < rest % others.length ? 1 : 0);
    const project = writeProject(root, language, count, MIXED_LANGUAGES.indexOf(language));
    written[language] = project;
    files += project.files;
    directories += project.directories;
  });
  return { files, directories, languages: written };
}

/** The directories `generateRepo` makes, in its order ('' the root). */
function tsDirectories(count: number): string[] {
  const directories: string[] = [''];
  for (let i = 1; i < count; i++) {
    const parent = directories[Math.floor((i - 1) / 8)]!;
    directories.push(parent === '' ? `pkg${i}` : `${parent}/mod${i}`);
  }
  return directories;
}

interface Slot {
  /** The directory below the language's source root ('' the root), as named in the language. */
  directory: string;
  /** Its place in the directory (0 to 19). */
  slot: number;
}

/** A tree of directories like `generateRepo`'s (8 to a directory), holding `count` slots, 20 to a directory. */
function slotsOf(count: number, capitalized: boolean): { directories: string[]; slots: Slot[] } {
  const directories: string[] = [''];
  const directoryCount = Math.max(1, Math.ceil(count / 20));
  const name = (word: string, i: number): string => `${capitalized ? word[0]!.toUpperCase() + word.slice(1) : word}${i}`;
  for (let i = 1; i < directoryCount; i++) {
    const parent = directories[Math.floor((i - 1) / 8)]!;
    directories.push(parent === '' ? name('pkg', i) : `${parent}/${name('mod', i)}`);
  }
  const slots: Slot[] = [];
  for (const directory of directories) for (let slot = 0; slot < 20 && slots.length < count; slot++) slots.push({ directory, slot });
  return { directories, slots };
}

/** Up to three other entries of `list`, mostly near `index` (as `generateRepo` picks its imports). */
function nearby<T>(list: readonly T[], index: number, random: () => number): T[] {
  const picked: T[] = [];
  const imports = Math.floor(random() * 4);
  for (let k = 0; k < imports; k++) {
    const near = random() < 0.8;
    const at = near ? Math.min(list.length - 1, Math.max(0, index + Math.floor((random() - 0.5) * 40))) : Math.floor(random() * list.length);
    if (at !== index && !picked.includes(list[at]!)) picked.push(list[at]!);
  }
  return picked;
}

const joinPath = (...parts: string[]): string => parts.filter((part) => part !== '').join('/');

/** A relative path from `directory` to `target`, both below the same root. */
function relativeTo(directory: string, target: string): string {
  return path.posix.relative(directory === '' ? '.' : directory, target);
}

/** Writes one language's project of `count` files (manifests included) under `<root>/<language>/`. */
function writeProject(root: string, language: MixedLanguage, count: number, seedOffset: number): MixedLanguageFiles {
  let seed = 1_000 + seedOffset;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const project = (...parts: string[]): string => joinPath(language, ...parts);
  const out = new Map<string, string>();
  const add = (file: string, text: string): void => {
    out.set(file, text);
  };
  const generator = PROJECTS[language];
  generator(count, { add, project, random });
  let bytes = 0;
  const made = new Set<string>();
  for (const [file, text] of out) {
    const directory = path.dirname(path.join(root, file));
    if (!made.has(directory)) {
      mkdirSync(directory, { recursive: true });
      made.add(directory);
    }
    writeFileSync(path.join(root, file), text);
    bytes += Buffer.byteLength(text);
  }
  const sample = [...out.keys()].find((file) => SAMPLE[language].test(file))!;
  return { files: out.size, bytes, directories: made.size, sample, declaration: DECLARATION[language] };
}

interface ProjectWriter {
  add(file: string, text: string): void;
  /** A path in the language's project directory. */
  project(...parts: string[]): string;
  random(): number;
}

/** The sample file of each language: the fourth ordinary file of the first package below the root. */
const SAMPLE: Record<MixedLanguage, RegExp> = {
  python: /\/pkg1\/file3\.py$/,
  go: /\/pkg1\/file3\.go$/,
  rust: /\/pkg1\/file3\.rs$/,
  java: /\/pkg1\/File3\.java$/,
  kotlin: /\/pkg1\/File3\.kt$/,
  csharp: /\/Pkg1\/File3\.cs$/,
  ruby: /\/pkg1\/file3\.rb$/,
  php: /\/Pkg1\/File3\.php$/,
  c: /\/pkg1\/unit1\.c$/,
  cpp: /\/pkg1\/unit1\.cpp$/,
};

const DECLARATION: Record<MixedLanguage, (name: string) => string> = {
  python: (name) => `\n\ndef ${name}():\n    return 1\n`,
  go: (name) => `\nfunc ${name}() int { return 1 }\n`,
  rust: (name) => `\npub fn ${name}() -> i64 {\n    1\n}\n`,
  java: (name) => `\nclass ${name} {}\n`,
  kotlin: (name) => `\nfun ${name}(): Int = 1\n`,
  csharp: (name) => `\npublic class ${name} {}\n`,
  ruby: (name) => `\ndef ${name}\n  1\nend\n`,
  php: (name) => `\nfunction ${name}(): int\n{\n    return 1;\n}\n`,
  c: (name) => `\nint ${name}(void) { return 1; }\n`,
  cpp: (name) => `\nint ${name}() { return 1; }\n`,
};

const PROJECTS: Record<MixedLanguage, (count: number, writer: ProjectWriter) => void> = {
  python(count, { add, project, random }) {
    add(project('pyproject.toml'), '[project]\nname = "mixed"\nversion = "0.1.0"\nrequires-python = ">=3.10"\n');
    const { slots } = slotsOf(count - 1, false);
    const modules = slots.filter((s) => s.slot > 0);
    const moduleOf = (s: Slot): string => ['mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('.');
    for (const s of slots) {
      const file = project('src/mixed', s.directory, s.slot === 0 ? '__init__.py' : `file${s.slot}.py`);
      if (s.slot === 0) {
        add(file, `"""The ${moduleOf(s)} package."""\n`);
        continue;
      }
      const index = modules.indexOf(s);
      const lines = [`"""Module file${s.slot} of ${moduleOf(s)}."""`, ''];
      if (random() < 0.5) lines.push('import os');
      if (random() < 0.3) lines.push('from typing import Iterable');
      for (const target of nearby(modules, index, random)) {
        if (target.directory === s.directory) lines.push(`from . import file${target.slot}`);
        else if (random() < 0.5) lines.push(`from ${moduleOf(target)} import file${target.slot}`);
        else lines.push(`import ${moduleOf(target)}.file${target.slot}`);
      }
      lines.push(
        '',
        `LIMIT_${index} = ${index}`,
        '',
        '',
        `def total_${index}(values):`,
        `    """The sum of the even values, from LIMIT_${index}."""`,
        `    total = LIMIT_${index}`,
        '    for value in values:',
        '        if value % 2 == 0:',
        '            total += value',
        '        else:',
        '            total -= 1',
        '    return total',
      );
      if (random() < 0.5) {
        lines.push(
          '',
          '',
          `class Thing${index}:`,
          `    """A thing of size n."""`,
          '',
          '    def __init__(self, size):',
          '        self.size = size',
          '',
          '    def scaled(self, factor):',
          '        return self.size * factor if factor > 0 else self.size',
        );
      }
      add(file, `${lines.join('\n')}\n`);
    }
  },

  go(count, { add, project, random }) {
    add(project('go.mod'), 'module example.com/mixed\n\ngo 1.22\n');
    const { slots } = slotsOf(count - 1, false);
    const packageOf = (s: Slot): string => (s.directory === '' ? 'mixed' : s.directory.slice(s.directory.lastIndexOf('/') + 1));
    slots.forEach((s, index) => {
      const imports = new Map<string, string>();
      if (random() < 0.5) imports.set('fmt', '');
      if (random() < 0.3) imports.set('strings', '');
      const uses: string[] = [];
      for (const target of nearby(slots, index, random)) {
        if (target.directory === s.directory) continue;
        const importPath = joinPath('example.com/mixed', target.directory);
        if (!imports.has(importPath)) uses.push(`${packageOf(target)}.Limit${slots.indexOf(target)}`);
        imports.set(importPath, '');
      }
      const lines = [`// Package ${packageOf(s)}: part ${s.slot} of it.`, `package ${packageOf(s)}`, ''];
      if (imports.size > 0) lines.push('import (', ...[...imports.keys()].map((p) => `\t"${p}"`), ')', '');
      lines.push(
        `// Limit${index} is where the totals of this file start.`,
        `const Limit${index} = ${index}`,
        '',
        `// Total${index} sums the even values from Limit${index}.`,
        `func Total${index}(values []int) int {`,
        `\ttotal := Limit${index}`,
        '\tfor _, value := range values {',
        '\t\tif value%2 == 0 {',
        '\t\t\ttotal += value',
        '\t\t} else {',
        '\t\t\ttotal--',
        '\t\t}',
        '\t}',
        '\treturn total',
        '}',
      );
      if (random() < 0.5) {
        lines.push(
          '',
          `// Thing${index} has a size.`,
          `type Thing${index} struct {`,
          '\tsize int',
          '}',
          '',
          '// Scaled is the size times factor, when factor is positive.',
          `func (t *Thing${index}) Scaled(factor int) int {`,
          '\tif factor > 0 {',
          '\t\treturn t.size * factor',
          '\t}',
          '\treturn t.size',
          '}',
        );
      }
      if (imports.has('fmt')) uses.push('fmt.Sprint');
      if (imports.has('strings')) uses.push('strings.ToUpper');
      if (uses.length > 0) lines.push('', ...uses.map((use) => `var _ = ${use}`));
      add(project(s.directory, `file${s.slot}.go`), `${lines.join('\n')}\n`);
    });
  },

  rust(count, { add, project, random }) {
    add(project('Cargo.toml'), '[package]\nname = "mixed"\nversion = "0.1.0"\nedition = "2021"\n');
    const { directories, slots } = slotsOf(count - 1, false);
    const items = slots.filter((s) => s.slot > 0);
    const pathOf = (s: Slot): string => ['crate', ...(s.directory === '' ? [] : s.directory.split('/')), `file${s.slot}`].join('::');
    for (const s of slots) {
      if (s.slot === 0) {
        // lib.rs or mod.rs: the module's children, directories and files.
        const children = directories.filter((d) => d !== '' && path.posix.dirname(d) === (s.directory === '' ? '.' : s.directory));
        const files = items.filter((item) => item.directory === s.directory);
        const lines = [
          `//! The ${s.directory === '' ? 'mixed crate' : `${s.directory} module`}.`,
          '',
          ...children.map((d) => `pub mod ${d.slice(d.lastIndexOf('/') + 1)};`),
          ...files.map((f) => `pub mod file${f.slot};`),
        ];
        add(project('src', s.directory, s.directory === '' ? 'lib.rs' : 'mod.rs'), `${lines.join('\n')}\n`);
        continue;
      }
      const index = items.indexOf(s);
      const lines: string[] = [];
      if (random() < 0.5) lines.push('use std::collections::HashMap;');
      const used: string[] = [];
      const names = new Set([`file${s.slot}`]);
      for (const target of nearby(items, index, random)) {
        // Two modules of one name would clash in this one: only the first of each name is brought in.
        if (names.has(`file${target.slot}`)) continue;
        names.add(`file${target.slot}`);
        lines.push(target.directory === s.directory ? `use super::file${target.slot};` : `use ${pathOf(target)};`);
        used.push(`file${target.slot}::LIMIT_${items.indexOf(target)}`);
      }
      if (lines.length > 0) lines.push('');
      lines.push(
        `/// Where the totals of this module start.`,
        `pub const LIMIT_${index}: i64 = ${index};`,
        '',
        '/// The sum of the even values, from the limit.',
        `pub fn total_${index}(values: &[i64]) -> i64 {`,
        `    let mut total = LIMIT_${index};`,
        '    for value in values {',
        '        if value % 2 == 0 {',
        '            total += value;',
        '        } else {',
        '            total -= 1;',
        '        }',
        '    }',
        '    total',
        '}',
      );
      if (random() < 0.5) {
        lines.push(
          '',
          `pub struct Thing${index} {`,
          '    size: i64,',
          '}',
          '',
          `impl Thing${index} {`,
          '    pub fn scaled(&self, factor: i64) -> i64 {',
          '        if factor > 0 { self.size * factor } else { self.size }',
          '    }',
          '}',
        );
      }
      if (used.length > 0) lines.push('', `pub const USED_${index}: i64 = ${used.join(' + ')};`);
      add(project('src', s.directory, `file${s.slot}.rs`), `${lines.join('\n')}\n`);
    }
  },

  java(count, { add, project, random }) {
    add(
      project('pom.xml'),
      '<project>\n  <modelVersion>4.0.0</modelVersion>\n  <groupId>com.example</groupId>\n  <artifactId>mixed</artifactId>\n  <version>0.1.0</version>\n</project>\n',
    );
    const { slots } = slotsOf(count - 1, false);
    const packageOf = (s: Slot): string => ['com.example.mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('.');
    slots.forEach((s, index) => {
      const lines = [`package ${packageOf(s)};`, '', 'import java.util.List;'];
      if (random() < 0.3) lines.push('import java.util.Map;');
      const names = new Set([`File${s.slot}`]);
      const used: string[] = [];
      for (const target of nearby(slots, index, random)) {
        const name = `File${target.slot}`;
        if (names.has(name)) continue;
        names.add(name);
        if (target.directory !== s.directory) lines.push(`import ${packageOf(target)}.${name};`);
        used.push(`${name}.LIMIT`);
      }
      lines.push(
        '',
        `/** Part ${s.slot} of ${packageOf(s)}. */`,
        `public class File${s.slot} {`,
        `    public static final int LIMIT = ${index};`,
        '',
        '    private final int size;',
        '',
        `    public File${s.slot}(int size) {`,
        '        this.size = size;',
        '    }',
        '',
        '    /** The sum of the even values, from the limit. */',
        '    public static int total(List<Integer> values) {',
        `        int total = LIMIT${used.map((u) => ` + ${u}`).join('')};`,
        '        for (int value : values) {',
        '            if (value % 2 == 0) {',
        '                total += value;',
        '            } else {',
        '                total--;',
        '            }',
        '        }',
        '        return total;',
        '    }',
      );
      if (random() < 0.5) lines.push('', '    public int scaled(int factor) {', '        return factor > 0 ? size * factor : size;', '    }');
      lines.push('}');
      add(project('src/main/java/com/example/mixed', s.directory, `File${s.slot}.java`), `${lines.join('\n')}\n`);
    });
  },

  kotlin(count, { add, project, random }) {
    add(project('settings.gradle.kts'), 'rootProject.name = "mixed"\n');
    const { slots } = slotsOf(count - 1, false);
    const packageOf = (s: Slot): string => ['com.example.mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('.');
    slots.forEach((s, index) => {
      const lines = [`package ${packageOf(s)}`, ''];
      if (random() < 0.3) lines.push('import kotlin.math.max');
      const names = new Set([`File${s.slot}`]);
      const used: string[] = [];
      for (const target of nearby(slots, index, random)) {
        const name = `File${target.slot}`;
        if (names.has(name)) continue;
        names.add(name);
        if (target.directory !== s.directory) lines.push(`import ${packageOf(target)}.${name}`);
        used.push(`${name}.LIMIT`);
      }
      lines.push(
        '',
        `/** Where the totals of part ${s.slot} start. */`,
        `const val LIMIT_${index} = ${index}`,
        '',
        '/** The sum of the even values, from the limit. */',
        `fun total${index}(values: List<Int>): Int {`,
        `    var total = LIMIT_${index}${used.map((u) => ` + ${u}`).join('')}`,
        '    for (value in values) {',
        '        if (value % 2 == 0) {',
        '            total += value',
        '        } else {',
        '            total--',
        '        }',
        '    }',
        '    return total',
        '}',
        '',
        `class File${s.slot}(private val size: Int) {`,
        '    fun scaled(factor: Int): Int = if (factor > 0) size * factor else size',
        '',
        '    companion object {',
        `        const val LIMIT = ${index}`,
        '    }',
        '}',
      );
      add(project('src/main/kotlin/com/example/mixed', s.directory, `File${s.slot}.kt`), `${lines.join('\n')}\n`);
    });
  },

  csharp(count, { add, project, random }) {
    add(
      project('Mixed.csproj'),
      '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <TargetFramework>net8.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n',
    );
    const { slots } = slotsOf(count - 1, true);
    const namespaceOf = (s: Slot): string => ['Mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('.');
    slots.forEach((s, index) => {
      const lines = ['using System;', 'using System.Collections.Generic;'];
      const namespaces = new Set<string>();
      const used: string[] = [];
      for (const target of nearby(slots, index, random)) {
        const name = `File${target.slot}`;
        if (target.directory === s.directory) {
          used.push(`${name}.Limit`);
        } else if (namespaces.size === 0) {
          // One namespace brought in whole, the others' classes named in full.
          namespaces.add(namespaceOf(target));
          lines.push(`using ${namespaceOf(target)};`);
        } else {
          lines.push(`using static ${namespaceOf(target)}.${name};`);
        }
      }
      lines.push(
        '',
        `namespace ${namespaceOf(s)};`,
        '',
        `/// <summary>Part ${s.slot} of ${namespaceOf(s)}.</summary>`,
        `public class File${s.slot}`,
        '{',
        `    public const int Limit = ${index};`,
        '',
        '    /// <summary>The sum of the even values, from the limit.</summary>',
        '    public static int Total(IEnumerable<int> values)',
        '    {',
        `        var total = Limit${used.map((u) => ` + ${u}`).join('')};`,
        '        foreach (var value in values)',
        '        {',
        '            if (value % 2 == 0)',
        '            {',
        '                total += value;',
        '            }',
        '            else',
        '            {',
        '                total--;',
        '            }',
        '        }',
        '        return total;',
        '    }',
      );
      if (random() < 0.5) lines.push('', '    public int Size { get; init; }', '', '    public int Scaled(int factor) => factor > 0 ? Size * factor : Size;');
      lines.push('}');
      add(project(s.directory, `File${s.slot}.cs`), `${lines.join('\n')}\n`);
    });
  },

  ruby(count, { add, project, random }) {
    add(project('Gemfile'), "source 'https://rubygems.org'\n\ngem 'rake'\n");
    const { slots } = slotsOf(count - 1, false);
    slots.forEach((s, index) => {
      const lines = ['# frozen_string_literal: true', ''];
      if (random() < 0.4) lines.push("require 'json'");
      for (const target of nearby(slots, index, random)) {
        lines.push(`require_relative '${relativeTo(s.directory, joinPath(target.directory, `file${target.slot}`))}'`);
      }
      lines.push(
        '',
        'module Mixed',
        `  LIMIT_${index} = ${index}`,
        '',
        '  # The sum of the even values, from the limit.',
        `  def self.total_${index}(values)`,
        `    total = LIMIT_${index}`,
        '    values.each do |value|',
        '      if value.even?',
        '        total += value',
        '      else',
        '        total -= 1',
        '      end',
        '    end',
        '    total',
        '  end',
      );
      if (random() < 0.5) {
        lines.push(
          '',
          `  class Thing${index}`,
          '    def initialize(size)',
          '      @size = size',
          '    end',
          '',
          '    def scaled(factor)',
          '      factor.positive? ? @size * factor : @size',
          '    end',
          '  end',
        );
      }
      lines.push('end');
      add(project('lib/mixed', s.directory, `file${s.slot}.rb`), `${lines.join('\n')}\n`);
    });
  },

  php(count, { add, project, random }) {
    add(
      project('composer.json'),
      '{\n    "name": "example/mixed",\n    "autoload": {\n        "psr-4": {\n            "Mixed\\\\": "src/"\n        }\n    }\n}\n',
    );
    const { slots } = slotsOf(count - 1, true);
    const namespaceOf = (s: Slot): string => ['Mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('\\');
    slots.forEach((s, index) => {
      const uses: string[] = [];
      const requires: string[] = [];
      const names = new Set([`File${s.slot}`]);
      for (const target of nearby(slots, index, random)) {
        const name = `File${target.slot}`;
        if (target.directory === s.directory) requires.push(`require_once __DIR__ . '/${name}.php';`);
        else if (!names.has(name)) uses.push(`use ${namespaceOf(target)}\\${name};`);
        names.add(name);
      }
      const lines = ['<?php', '', 'declare(strict_types=1);', '', `namespace ${namespaceOf(s)};`, ''];
      if (uses.length > 0) lines.push(...uses, '');
      if (requires.length > 0) lines.push(...requires, '');
      lines.push(
        `const LIMIT_${index} = ${index};`,
        '',
        '/** The sum of the even values, from the limit. */',
        `function total${index}(array $values): int`,
        '{',
        `    $total = LIMIT_${index};`,
        '    foreach ($values as $value) {',
        '        if ($value % 2 === 0) {',
        '            $total += $value;',
        '        } else {',
        '            $total--;',
        '        }',
        '    }',
        '    return $total;',
        '}',
        '',
        `final class File${s.slot}`,
        '{',
        '    public function __construct(private int $size)',
        '    {',
        '    }',
        '',
        '    public function scaled(int $factor): int',
        '    {',
        '        return $factor > 0 ? $this->size * $factor : $this->size;',
        '    }',
        '}',
      );
      add(project('src', s.directory, `File${s.slot}.php`), `${lines.join('\n')}\n`);
    });
  },

  c(count, writer) {
    cFamily(count, writer, false);
  },

  cpp(count, writer) {
    cFamily(count, writer, true);
  },
};

/** C (unitN.h and unitN.c) or C++ (unitN.hpp and unitN.cpp): pairs of a header and its source, which includes it and nearby headers. */
function cFamily(count: number, { add, project, random }: ProjectWriter, cpp: boolean): void {
  add(project('Makefile'), cpp ? 'CXXFLAGS = -std=c++17 -Wall -Isrc\n' : 'CFLAGS = -std=c11 -Wall -Isrc\n');
  const { slots } = slotsOf(count - 1, false);
  const [header, source] = cpp ? ['hpp', 'cpp'] : ['h', 'c'];
  const headers = slots.filter((s) => s.slot % 2 === 0);
  const unitOf = (s: Slot): number => Math.floor(s.slot / 2);
  const headerPath = (s: Slot): string => joinPath(s.directory, `unit${unitOf(s)}.${header}`);
  const namespaceOf = (s: Slot): string => ['mixed', ...(s.directory === '' ? [] : s.directory.split('/'))].join('::');
  slots.forEach((s) => {
    const own = headers.findIndex((h) => h.directory === s.directory && unitOf(h) === unitOf(s));
    const includes = nearby(headers, own, random).map((target) => `#include "${relativeTo(s.directory, headerPath(target))}"`);
    const lines: string[] = [];
    if (s.slot % 2 === 0) {
      const guard = `MIXED_${headerPath(s)
        .replace(/[^A-Za-z0-9]/g, '_')
        .toUpperCase()}`;
      lines.push(`#ifndef ${guard}`, `#define ${guard}`, '', cpp ? '#include <vector>' : '#include <stddef.h>');
      if (includes.length > 0) lines.push(includes[0]!);
      lines.push('', `#define UNIT_LIMIT_${own} ${own}`, '');
      if (cpp) {
        lines.push(
          `namespace ${namespaceOf(s)} {`,
          '',
          `/// Part ${unitOf(s)}: things of a size.`,
          `class Thing${own} {`,
          ' public:',
          `  explicit Thing${own}(int size) : size_(size) {}`,
          '  int scaled(int factor) const;',
          '',
          ' private:',
          '  int size_;',
          '};',
          '',
          `int total${own}(const std::vector<int>& values);`,
          '',
          `}  // namespace ${namespaceOf(s)}`,
        );
      } else {
        lines.push(
          `struct thing${own} {`,
          '  int size;',
          '};',
          '',
          `int total${own}(const int *values, size_t count);`,
          `int scaled${own}(const struct thing${own} *thing, int factor);`,
        );
      }
      lines.push('', `#endif  // ${guard}`);
      add(project('src', headerPath(s)), `${lines.join('\n')}\n`);
      return;
    }
    lines.push(`#include "unit${unitOf(s)}.${header}"`, '', cpp ? '#include <algorithm>' : '#include <stdio.h>', ...includes, '');
    if (cpp) {
      lines.push(
        `namespace ${namespaceOf(s)} {`,
        '',
        `int Thing${own}::scaled(int factor) const { return factor > 0 ? size_ * factor : size_; }`,
        '',
        `int total${own}(const std::vector<int>& values) {`,
        `  int total = UNIT_LIMIT_${own};`,
        '  for (int value : values) {',
        '    if (value % 2 == 0) {',
        '      total += value;',
        '    } else {',
        '      --total;',
        '    }',
        '  }',
        '  return total;',
        '}',
        '',
        `}  // namespace ${namespaceOf(s)}`,
      );
    } else {
      lines.push(
        `int total${own}(const int *values, size_t count) {`,
        `  int total = UNIT_LIMIT_${own};`,
        '  for (size_t i = 0; i < count; i++) {',
        '    if (values[i] % 2 == 0) {',
        '      total += values[i];',
        '    } else {',
        '      total--;',
        '    }',
        '  }',
        '  return total;',
        '}',
        '',
        `int scaled${own}(const struct thing${own} *thing, int factor) {`,
        '  return factor > 0 ? thing->size * factor : thing->size;',
        '}',
      );
    }
    add(project('src', s.directory, `unit${unitOf(s)}.${source}`), `${lines.join('\n')}\n`);
  });
}
