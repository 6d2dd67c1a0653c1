import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type CodeGraph, indexRepository } from '@strata/host';
import t, { type Test } from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface CResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The including file. */
  from: string;
  /** Ids the file's import edges point to. */
  expect: string[];
  /** Specifiers left unresolved, with a pattern of the reason. */
  unresolved?: Record<string, RegExp>;
  /**
   * The include directories (`-iquote`, `-I`) under which `gcc -M -MG` must
   * find the same repository headers as the graph: absent where gcc cannot
   * see what the graph does (an include under `#ifdef`).
   */
  gcc?: string[];
}

const EMPTY = '';

const cases: CResolutionCase[] = [
  {
    name: '#include "..." is looked for in the including file\'s directory first, then in the include directories',
    files: {
      'src/main.c': '#include "util.h"\n#include "lib/api.h"\n#include "../common.h"\n',
      'src/util.h': EMPTY,
      'include/util.h': 'a decoy: the including directory comes first\n',
      'include/lib/api.h': EMPTY,
      'common.h': EMPTY,
    },
    from: 'src/main.c',
    expect: ['file:src/util.h', 'file:include/lib/api.h', 'file:common.h'],
    gcc: ['-Iinclude', '-I.'],
  },
  {
    name: '#include <...> is searched in the include directories (a project header with angle brackets), not in the including directory',
    files: {
      'src/main.cpp': '#include <util.h>\n#include <proj/core.hpp>\n#include <vector>\n#include <stdio.h>\n#include <zlib.h>\n#include <sys/types.h>\n',
      'src/util.h': 'not searched for <util.h>\n',
      'util.h': EMPTY,
      'include/proj/core.hpp': EMPTY,
    },
    from: 'src/main.cpp',
    expect: ['file:util.h', 'file:include/proj/core.hpp', 'pkg:c:vector', 'pkg:c:stdio.h', 'pkg:c:zlib.h', 'pkg:c:sys/types.h'],
    gcc: ['-Iinclude', '-I.'],
  },
  {
    name: "guesses: the include/ directory nearest above the file comes before the others, each project folder's own",
    files: {
      'libs/a/include/config.h': EMPTY,
      'libs/a/src/a.c': '#include <config.h>\n',
      'libs/b/include/config.h': EMPTY,
      'libs/b/src/b.c': EMPTY,
    },
    from: 'libs/a/src/a.c',
    expect: ['file:libs/a/include/config.h'],
    gcc: ['-Ilibs/a/include', '-Ilibs/b/include', '-I.'],
  },
  {
    name: "compile_commands.json: the -iquote, -I and -isystem of the file's entry, relative to its directory; no guesses",
    files: {
      'compile_commands.json': JSON.stringify([
        { directory: 'build', file: '../src/main.c', command: 'cc -iquote ../quoted -I ../api -isystem ../vendor -c ../src/main.c' },
        { directory: '.', file: 'other/other.c', arguments: ['cc', '-Iother_api', '-c', 'other/other.c'] },
      ]),
      'src/main.c': '#include "q.h"\n#include "api.h"\n#include <v.h>\n#include <top.h>\n',
      'quoted/q.h': EMPTY,
      'api/api.h': EMPTY,
      'vendor/v.h': EMPTY,
      'other_api/api.h': "another entry's directory: not this file's",
      'include/top.h': 'a guess, not used when a compilation database is there',
      'build/.keep': EMPTY,
      'other/other.c': EMPTY,
    },
    from: 'src/main.c',
    expect: ['file:quoted/q.h', 'file:api/api.h', 'file:vendor/v.h', 'pkg:c:top.h'],
    gcc: ['-iquote', 'quoted', '-Iapi', '-isystem', 'vendor'],
  },
  {
    name: 'compile_commands.json: a header, which has no entry, searches the directories of every entry',
    files: {
      'compile_commands.json': JSON.stringify([
        { directory: '.', file: 'a/a.c', arguments: ['cc', '-Ione', '-c', 'a/a.c'] },
        { directory: '.', file: 'b/b.c', arguments: ['cc', '-Itwo', '-c', 'b/b.c'] },
      ]),
      'a/a.c': EMPTY,
      'b/b.c': EMPTY,
      'a/a.h': '#include <x.h>\n#include <y.h>\n',
      'one/x.h': EMPTY,
      'two/y.h': EMPTY,
    },
    from: 'a/a.h',
    expect: ['file:one/x.h', 'file:two/y.h'],
    gcc: ['-Ione', '-Itwo'],
  },
  {
    name: "compile_commands.json of another checkout (no entry for this repository's files) is left for the guesses",
    files: {
      'compile_commands.json': JSON.stringify([
        { directory: '/elsewhere/build', file: '/elsewhere/src/main.c', arguments: ['cc', '-I/elsewhere/api', '-c', '/elsewhere/src/main.c'] },
      ]),
      'src/main.c': '#include <api.h>\n',
      'include/api.h': EMPTY,
    },
    from: 'src/main.c',
    expect: ['file:include/api.h'],
    gcc: ['-Iinclude', '-I.'],
  },
  {
    name: 'includes inside #if and #ifdef count (both branches: nothing is preprocessed); an include of a macro does not',
    files: {
      'main.c': '#ifdef _WIN32\n#include "win.h"\n#else\n#include "posix.h"\n#endif\n#if 0\n#include <never.h>\n#endif\n#include HEADER\n',
      'win.h': EMPTY,
      'posix.h': EMPTY,
    },
    from: 'main.c',
    expect: ['file:win.h', 'file:posix.h', 'pkg:c:never.h'],
  },
  {
    name: 'without a database, a header the search misses that one file alone ends with is that file (a vendored library under -I../deps/...); two candidates: none taken',
    files: {
      'src/server.c': '#include <hiredis.h>\n#include "lua.h"\n#include "sds/sds.h"\n#include "config.h"\n',
      'deps/hiredis/hiredis.h': EMPTY,
      'deps/lua/src/lua.h': EMPTY,
      'deps/hiredis/sds/sds.h': EMPTY,
      'deps/a/config.h': EMPTY,
      'deps/b/config.h': EMPTY,
    },
    from: 'src/server.c',
    expect: ['file:deps/hiredis/hiredis.h', 'file:deps/lua/src/lua.h', 'file:deps/hiredis/sds/sds.h'],
    unresolved: { 'config.h': /^no config\.h in src, \.$/ },
    // What redis's src/Makefile passes.
    gcc: ['-I../deps/hiredis', '-I../deps/lua/src'].map((flag) => flag.replace('..', '.')),
  },
  {
    name: 'with a database, only its directories count: a header outside them is a package node as gcc would not find it',
    files: {
      'compile_commands.json': JSON.stringify([{ directory: '.', file: 'src/server.c', arguments: ['cc', '-Iinclude', '-c', 'src/server.c'] }]),
      'src/server.c': '#include <hiredis.h>\n',
      'deps/hiredis/hiredis.h': EMPTY,
    },
    from: 'src/server.c',
    expect: ['pkg:c:hiredis.h'],
  },
  {
    name: 'a quoted header found nowhere is unresolved with the directories searched; a quoted standard header is the built-in package',
    files: { 'src/main.c': '#include "config.h"\n#include "string.h"\n#include "../../outside.h"\n' },
    from: 'src/main.c',
    expect: ['pkg:c:string.h'],
    unresolved: { 'config.h': /^no config\.h in src, \.$/, '../../outside.h': /^no \.\.\/\.\.\/outside\.h in src, \.$/ },
  },
];

/** The repository headers that gcc's preprocessor finds for `from` with `flags` (`-M`: system directories' too; missing ones taken as generated: `-MG`). */
function gccHeaders(repo: string, from: string, flags: string[]): string[] {
  const output = execFileSync('gcc', ['-M', '-MG', ...flags, from], { cwd: repo, encoding: 'utf8' });
  const words = output
    .replace(/\\\n/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !word.endsWith(':'));
  return [...new Set(words.slice(1).map((word) => path.posix.normalize(word)))]
    .filter((word) => !path.isAbsolute(word) && existsSync(path.join(repo, word)))
    .sort();
}

function agreesWithGcc(t: Test, graph: CodeGraph, repo: string, c: CResolutionCase): void {
  if (!c.gcc) return;
  const found = graph.edges
    .filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}` && edge.target.startsWith('file:'))
    .map((edge) => edge.target.slice('file:'.length))
    .sort();
  t.same(found, gccHeaders(repo, c.from, c.gcc), `gcc -M ${c.gcc.join(' ')} finds the same headers`);
}

for (const c of cases) {
  t.test(c.name, async (t) => {
    const repo = await makeRepo(t, c.files);
    const graph = await indexRepository({ repository: repo, env: {} });
    const edges = graph.edges.filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}`);
    t.same(edges.map((edge) => edge.target).sort(), [...c.expect].sort());
    for (const edge of edges)
      t.ok(
        graph.nodes.some((node) => node.id === edge.target),
        `${edge.target} is a node`,
      );
    const unresolved = graph.build.unresolved.filter((entry) => entry.file === c.from);
    t.same(unresolved.map((entry) => entry.specifier).sort(), Object.keys(c.unresolved ?? {}).sort(), 'unresolved specifiers');
    for (const entry of unresolved) t.match(entry.reason, c.unresolved?.[entry.specifier] ?? /^$/, `the reason for ${entry.specifier}`);
    agreesWithGcc(t, graph, repo, c);
  });
}

t.test('package nodes: c: names the header; the C and C++ standard headers are built in, others (POSIX, libraries) are not', async (t) => {
  const repo = await makeRepo(t, { 'a.c': '#include <stdio.h>\n#include <unistd.h>\n', 'b.cc': '#include <vector>\n#include <cstdio>\n' });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package').sort((a, b) => a.id.localeCompare(b.id));
  t.same(packages, [
    { id: 'pkg:c:cstdio', kind: 'package', name: 'c:cstdio', path: 'c:cstdio', builtin: true },
    { id: 'pkg:c:stdio.h', kind: 'package', name: 'c:stdio.h', path: 'c:stdio.h', builtin: true },
    { id: 'pkg:c:unistd.h', kind: 'package', name: 'c:unistd.h', path: 'c:unistd.h' },
    { id: 'pkg:c:vector', kind: 'package', name: 'c:vector', path: 'c:vector', builtin: true },
  ]);
});
