import { indexRepository } from '@strata/host';
import t from 'tap';
import { type FixtureFiles, makeRepo } from '../helpers/fixture-repo.ts';

interface ResolutionCase {
  name: string;
  files: FixtureFiles;
  /** The importing file. */
  from: string;
  /** Ids the file's import edges point to, with the reference kinds that made them. */
  expect: Record<string, string[]>;
}

const cases: ResolutionCase[] = [
  { name: 'relative path with its extension', files: { 'a.ts': "import './b.ts';", 'b.ts': '' }, from: 'a.ts', expect: { 'file:b.ts': ['static'] } },
  {
    name: 'relative path without an extension',
    files: { 'a.ts': "import { b } from './b';", 'b.ts': 'export const b = 1;' },
    from: 'a.ts',
    expect: { 'file:b.ts': ['static'] },
  },
  {
    name: '.js specifier naming a .ts source',
    files: { 'a.ts': "import { b } from './b.js';", 'b.ts': 'export const b = 1;' },
    from: 'a.ts',
    expect: { 'file:b.ts': ['static'] },
  },
  {
    name: '.js specifier naming a .js file',
    files: { 'a.js': "import b from './b.js';", 'b.js': 'export default 1;' },
    from: 'a.js',
    expect: { 'file:b.js': ['static'] },
  },
  {
    name: 'directory index file',
    files: { 'a.ts': "import { x } from './lib';", 'lib/index.ts': 'export const x = 1;' },
    from: 'a.ts',
    expect: { 'file:lib/index.ts': ['static'] },
  },
  {
    name: '.mjs and .cjs specifiers naming .mts and .cts sources',
    files: { 'a.mts': "import './m.mjs';\nimport c = require('./c.cjs');", 'm.mts': '', 'c.cts': 'export = 1;' },
    from: 'a.mts',
    expect: { 'file:m.mts': ['static'], 'file:c.cts': ['require'] },
  },
  {
    name: '.mjs and .cjs files',
    files: { 'a.mjs': "import './m.mjs';\nconst c = await import('./c.cjs');", 'm.mjs': '', 'c.cjs': 'module.exports = 1;' },
    from: 'a.mjs',
    expect: { 'file:m.mjs': ['static'], 'file:c.cjs': ['dynamic'] },
  },
  {
    name: '.tsx and .jsx',
    files: {
      'a.tsx': "import V from './view';\nimport W from './widget.jsx';\nexport const x = <V />;",
      'view.tsx': 'export default () => <div />;',
      'widget.jsx': 'export default () => <p />;',
    },
    from: 'a.tsx',
    expect: { 'file:view.tsx': ['static'], 'file:widget.jsx': ['static'] },
  },
  {
    name: 'tsconfig paths with baseUrl',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
      'src/main.ts': "import { u } from '@app/util';",
      'src/util.ts': 'export const u = 1;',
    },
    from: 'src/main.ts',
    expect: { 'file:src/util.ts': ['static'] },
  },
  {
    name: 'tsconfig paths without baseUrl',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '~/*': ['./src/*'] } } }),
      'src/main.ts': "import { u } from '~/deep/util';",
      'src/deep/util.ts': 'export const u = 1;',
    },
    from: 'src/main.ts',
    expect: { 'file:src/deep/util.ts': ['static'] },
  },
  {
    name: 'tsconfig baseUrl alone',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: 'src' } }),
      'src/main.ts': "import { u } from 'shared/util';",
      'src/shared/util.ts': 'export const u = 1;',
    },
    from: 'src/main.ts',
    expect: { 'file:src/shared/util.ts': ['static'] },
  },
  {
    name: 'tsconfig extends a base that declares paths',
    files: {
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '#lib/*': ['lib/*'] } } }),
      'tsconfig.json': JSON.stringify({ extends: './tsconfig.base.json', compilerOptions: { strict: true } }),
      'src/main.ts': "import { l } from '#lib/tool';",
      'lib/tool.ts': 'export const l = 1;',
    },
    from: 'src/main.ts',
    expect: { 'file:lib/tool.ts': ['static'] },
  },
  {
    name: 'package.json imports',
    files: {
      'package.json': JSON.stringify({ name: 'app', imports: { '#internal/*': './src/internal/*.ts' } }),
      'src/main.ts': "import { i } from '#internal/secret';",
      'src/internal/secret.ts': 'export const i = 1;',
    },
    from: 'src/main.ts',
    expect: { 'file:src/internal/secret.ts': ['static'] },
  },
  {
    name: 'package.json exports, the package importing itself by name',
    files: {
      'package.json': JSON.stringify({ name: 'me', exports: { '.': './src/index.ts', './feature': './src/feature.ts' } }),
      'src/index.ts': "export * from 'me/feature';",
      'src/feature.ts': 'export const f = 1;',
    },
    from: 'src/index.ts',
    expect: { 'file:src/feature.ts': ['re-export'] },
  },
  {
    name: 'npm workspaces: a package resolves to its sources, not to its missing build output',
    files: {
      'package.json': JSON.stringify({ name: 'root', private: true, workspaces: ['packages/*'] }),
      'packages/util/package.json': JSON.stringify({ name: '@acme/util', main: 'dist/index.js', types: 'dist/index.d.ts' }),
      'packages/util/src/index.ts': 'export const u = 1;',
      'packages/util/src/helpers.ts': 'export const h = 1;',
      'packages/app/package.json': JSON.stringify({ name: '@acme/app' }),
      'packages/app/src/main.ts': "import { u } from '@acme/util';\nimport { h } from '@acme/util/helpers';",
    },
    from: 'packages/app/src/main.ts',
    expect: { 'file:packages/util/src/index.ts': ['static'], 'file:packages/util/src/helpers.ts': ['static'] },
  },
  {
    name: 'yarn workspaces (object form) with exports conditions and patterns',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: { packages: ['libs/**'] } }),
      'libs/core/package.json': JSON.stringify({
        name: 'core',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.mjs' }, './parts/*': { import: './dist/parts/*.mjs' } },
      }),
      'libs/core/src/index.ts': 'export {};',
      'libs/core/src/parts/wheel.ts': 'export {};',
      'app.ts': "import 'core';\nimport 'core/parts/wheel';",
    },
    from: 'app.ts',
    expect: { 'file:libs/core/src/index.ts': ['static'], 'file:libs/core/src/parts/wheel.ts': ['static'] },
  },
  {
    // excalidraw: `@excalidraw/excalidraw/css` is `packages/excalidraw/css.d.ts` through paths, nothing through exports.
    name: 'tsconfig paths win over the exports of a workspace package of the same name, as in TypeScript',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      'tsconfig.json': JSON.stringify({ compilerOptions: { moduleResolution: 'bundler', paths: { '@acme/draw/*': ['./packages/draw/*'] } } }),
      'packages/draw/package.json': JSON.stringify({
        name: '@acme/draw',
        exports: {
          '.': { types: './dist/types/index.d.ts', default: './dist/index.js' },
          './utils': './src/utils-entry.ts',
          './*': { types: './dist/types/*' },
        },
      }),
      'packages/draw/css.d.ts': 'export {};',
      'packages/draw/utils.ts': 'export {};',
      'packages/draw/src/utils-entry.ts': 'export {};',
      'packages/app/main.ts': "import '@acme/draw/css';\nimport '@acme/draw/utils';",
    },
    from: 'packages/app/main.ts',
    expect: { 'file:packages/draw/css.d.ts': ['static'], 'file:packages/draw/utils.ts': ['static'] },
  },
  {
    // payload: the root app/ folder (Next.js) is outside the include of every tsconfig.
    name: "a file no tsconfig includes is resolved with the nearest tsconfig's paths and baseUrl, as editors and bundlers do",
    files: {
      'tsconfig.json': JSON.stringify({
        compilerOptions: { baseUrl: '.', paths: { '@payload-config': ['./src/payload.config.ts'], '@/*': ['./src/*'] } },
        include: ['src'],
      }),
      'src/payload.config.ts': 'export default {};',
      'src/components/Button.tsx': 'export const Button = () => null;',
      'src/lib/format.ts': 'export {};',
      'app/(payload)/layout.tsx': "import config from '@payload-config';\nimport { Button } from '@/components/Button';\nimport 'src/lib/format';",
    },
    from: 'app/(payload)/layout.tsx',
    expect: { 'file:src/payload.config.ts': ['static'], 'file:src/components/Button.tsx': ['static'], 'file:src/lib/format.ts': ['static'] },
  },
  {
    name: 'a JavaScript file no tsconfig claims (allowJs off) gets the nearest tsconfig too; a nearer one wins over the root',
    files: {
      'tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./src/*'] } } }),
      'site/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./lib/*'] } }, include: ['lib'] }),
      'src/shared.ts': 'export {};',
      'site/lib/shared.ts': 'export {};',
      'site/pages/admin/importMap.js': "import '@/shared';",
    },
    from: 'site/pages/admin/importMap.js',
    expect: { 'file:site/lib/shared.ts': ['static'] },
  },
  {
    name: 'pnpm workspaces, with the outDir to rootDir mapping of the package tsconfig',
    files: {
      'package.json': JSON.stringify({ name: 'mono', private: true }),
      'pnpm-workspace.yaml': "packages:\n  - 'pkgs/*'\n  - '!pkgs/ignored'\n",
      'pkgs/a/package.json': JSON.stringify({ name: 'a', main: 'out/main.js' }),
      'pkgs/a/tsconfig.json': JSON.stringify({ compilerOptions: { outDir: 'out', rootDir: 'source' } }),
      'pkgs/a/source/main.ts': 'export {};',
      'pkgs/ignored/package.json': JSON.stringify({ name: 'ignored-pkg' }),
      'pkgs/ignored/index.ts': '',
      'pkgs/b/index.ts': "import 'a';\nimport 'ignored-pkg';",
    },
    from: 'pkgs/b/index.ts',
    expect: { 'file:pkgs/a/source/main.ts': ['static'], 'pkg:ignored-pkg': ['static'] },
  },
  {
    name: 'exports conditions follow how a workspace package is loaded: import gets its import entry, require() its require entry',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      // `require` listed first: the key order alone must not decide for an import.
      'packages/dual/package.json': JSON.stringify({ name: 'dual', exports: { '.': { require: './require.cjs', import: './import.mjs' } } }),
      'packages/dual/require.cjs': 'module.exports = 1;',
      'packages/dual/import.mjs': 'export default 1;',
      'packages/app/main.js': "import x from 'dual';\nconst y = require('dual');",
    },
    from: 'packages/app/main.js',
    expect: { 'file:packages/dual/import.mjs': ['static'], 'file:packages/dual/require.cjs': ['require'] },
  },
  {
    name: 'package.json imports with import and require conditions',
    files: {
      'package.json': JSON.stringify({ name: 'app', imports: { '#dep': { require: './dep.cjs', import: './dep.mjs' } } }),
      'dep.cjs': 'module.exports = 1;',
      'dep.mjs': 'export default 1;',
      'main.js': "import x from '#dep';\nconst y = require('#dep');",
    },
    from: 'main.js',
    expect: { 'file:dep.mjs': ['static'], 'file:dep.cjs': ['require'] },
  },
  {
    name: 'a require-only #import still resolves from an import (TypeScript compiled to CommonJS requires it)',
    files: {
      'package.json': JSON.stringify({ name: 'app', imports: { '#dep': { require: './dep.cjs' } } }),
      'dep.cjs': 'module.exports = 1;',
      'main.ts': "import x from '#dep';",
    },
    from: 'main.ts',
    expect: { 'file:dep.cjs': ['static'] },
  },
  {
    // The declared one is neither the nearest nor the last found.
    name: 'workspace packages sharing a name: the importer gets the one its package.json declares',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: ['examples/**'] }),
      'examples/a/lib/package.json': JSON.stringify({ name: 'shared-lib', main: 'index.js' }),
      'examples/a/lib/index.js': '',
      'examples/c/lib/package.json': JSON.stringify({ name: 'shared-lib', main: 'index.js' }),
      'examples/c/lib/index.js': '',
      'examples/c/app/package.json': JSON.stringify({ name: 'c-app', dependencies: { 'shared-lib': 'file:../../a/lib' } }),
      'examples/c/app/main.js': "import 'shared-lib';",
    },
    from: 'examples/c/app/main.js',
    expect: { 'file:examples/a/lib/index.js': ['static'] },
  },
  {
    name: 'workspace packages sharing a name, nothing declared: the nearest to the importer',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: ['examples/**'] }),
      'examples/one/lib/package.json': JSON.stringify({ name: 'shared-lib', main: 'index.js' }),
      'examples/one/lib/index.js': '',
      'examples/two/lib/package.json': JSON.stringify({ name: 'shared-lib', main: 'index.js' }),
      'examples/two/lib/index.js': '',
      'examples/one/main.js': "import 'shared-lib';",
    },
    from: 'examples/one/main.js',
    expect: { 'file:examples/one/lib/index.js': ['static'] },
  },
  {
    name: 'a directory dependency under another name (file:) leads to that directory, workspace or not',
    files: {
      'package.json': JSON.stringify({
        name: 'app',
        dependencies: { 'alias-name': 'file:./vendor/real', 'renamed-from-npm': 'npm:lodash@4', stream: 'file:./vendor/stream' },
      }),
      'vendor/real/package.json': JSON.stringify({ name: 'real-name', main: 'main.js' }),
      'vendor/real/main.js': '',
      'vendor/stream/package.json': JSON.stringify({ name: 'stream', main: 'index.js' }),
      'vendor/stream/index.js': '',
      'renamed-from-npm/index.js': '',
      'src/main.js': "import 'alias-name';\nimport 'renamed-from-npm';\nimport 'stream';",
      // A package.json that only sets the module type declares nothing: the one above still decides.
      'src/package.json': JSON.stringify({ type: 'module' }),
    },
    // A Node module's name stays Node's module, as Node loads it.
    from: 'src/main.js',
    expect: { 'file:vendor/real/main.js': ['static'], 'pkg:renamed-from-npm': ['static'], 'pkg:node:stream': ['static'] },
  },
  {
    name: 'workspace aliases (pnpm and yarn): workspace:name@range and workspace:./path under another name',
    files: {
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      'packages/real/package.json': JSON.stringify({ name: '@acme/real', main: 'index.js' }),
      'packages/real/index.js': '',
      'packages/other/package.json': JSON.stringify({ name: '@acme/other', main: 'index.js' }),
      'packages/other/index.js': '',
      'packages/app/package.json': JSON.stringify({
        name: 'app',
        dependencies: { 'by-name': 'workspace:@acme/real@*', 'by-path': 'workspace:../other', '@acme/real': 'workspace:^' },
      }),
      'packages/app/main.js': "import 'by-name';\nimport 'by-path';\nimport '@acme/real';",
    },
    from: 'packages/app/main.js',
    expect: { 'file:packages/real/index.js': ['static'], 'file:packages/other/index.js': ['static'] },
  },
  {
    name: 'imports inside declare module blocks (ambient modules and augmentations)',
    files: {
      'typings/esquery.d.ts': [
        "declare module 'esquery' {",
        "  import type { Node } from '../ast';",
        "  import { Options } from '../options';",
        "  import legacy = require('../legacy');",
        "  export * from '../helpers';",
        "  export type { Kind } from '../kinds';",
        '  export function query(node: Node): Node[];',
        '}',
      ].join('\n'),
      'ast.ts': 'export type Node = {};',
      'options.ts': 'export class Options {}',
      'legacy.ts': 'export = 1;',
      'helpers.ts': 'export {};',
      'kinds.ts': 'export type Kind = 1;',
    },
    from: 'typings/esquery.d.ts',
    expect: {
      'file:ast.ts': ['type-only'],
      'file:options.ts': ['static'],
      'file:legacy.ts': ['require'],
      'file:helpers.ts': ['re-export'],
      'file:kinds.ts': ['type-only'],
    },
  },
  {
    name: 'JSDoc types in JavaScript: import() in a type expression and @import tags; not in prose or examples',
    files: {
      'a.js': [
        "/** @type {import('./config').Config} */",
        'export const config = {};',
        '/**',
        ' * @param {Array<import("./item.js").Item>} items',
        " * @returns {import('node:http').ServerResponse}",
        ' */',
        'export function f(items) { return items; }',
        "/** @import { Shape } from './shape' */",
        "/** @import * as helpers from './helpers.js' */",
        '/**',
        " * Prose that mentions import('./prose') is not a type.",
        ' * @example',
        " * const m = await import('./example');",
        ' */',
        "// {import('./line-comment').T}",
      ].join('\n'),
      'config.js': '',
      'item.js': '',
      'shape.js': '',
      'helpers.js': '',
      'prose.js': '',
      'example.js': '',
      'line-comment.js': '',
    },
    from: 'a.js',
    expect: {
      'file:config.js': ['type-only'],
      'file:item.js': ['type-only'],
      'pkg:node:http': ['type-only'],
      'file:shape.js': ['type-only'],
      'file:helpers.js': ['type-only'],
    },
  },
  {
    name: 'import type {} that names nothing is type-only; import {} is not',
    files: { 'a.ts': "import type {} from './t';\nimport {} from './v';", 't.ts': '', 'v.ts': '' },
    from: 'a.ts',
    expect: { 'file:t.ts': ['type-only'], 'file:v.ts': ['static'] },
  },
  {
    name: 'packages, installed or not, and Node built-ins',
    files: {
      'a.ts':
        "import fs from 'fs';\nimport path from 'node:path';\nimport React from 'react';\nimport { x } from '@scope/lib/sub/deep';\nimport _ from 'lodash';\nimport type { T } from 'types-only';",
      'node_modules/lodash/package.json': JSON.stringify({ name: 'lodash', main: 'lodash.js' }),
      'node_modules/lodash/lodash.js': 'module.exports = {};',
    },
    from: 'a.ts',
    expect: {
      'pkg:node:fs': ['static'],
      'pkg:node:path': ['static'],
      'pkg:react': ['static'],
      'pkg:@scope/lib': ['static'],
      'pkg:lodash': ['static'],
      'pkg:types-only': ['type-only'],
    },
  },
  {
    name: 'a tsconfig extending a package that is not installed does not stop resolution',
    files: {
      'tsconfig.json': JSON.stringify({ extends: '@acme/tsconfig', compilerOptions: { outDir: 'dist' } }),
      'source/core.ts': "import { E } from '../errors/E.js';\nimport { u } from './util';",
      'errors/E.ts': 'export class E {}',
      'source/util.ts': 'export const u = 1;',
    },
    from: 'source/core.ts',
    expect: { 'file:errors/E.ts': ['static'], 'file:source/util.ts': ['static'] },
  },
  {
    name: 'specifiers with a query or a fragment (bundler conventions)',
    files: { 'main.js': "import W from './worker.ts?worker';\nimport css from './style.css?raw';", 'worker.ts': '', 'style.css': 'a {}' },
    from: 'main.js',
    expect: { 'file:worker.ts': ['static'], 'file:style.css': ['static'] },
  },
  {
    name: 'triple-slash path references',
    files: {
      'client.d.ts': '/// <reference path="./types/meta.d.ts" />\n/// <reference path="globals.d.ts" />\n/// <reference types="node" />\nexport {};',
      'types/meta.d.ts': '',
      'globals.d.ts': '',
    },
    from: 'client.d.ts',
    expect: { 'file:types/meta.d.ts': ['type-only'], 'file:globals.d.ts': ['type-only'] },
  },
  {
    name: 'a JavaScript file importing ./x.js gets x.js, as Node does, even beside x.ts',
    files: { 'main.js': "import './x.js';\nimport './only-ts.js';", 'x.js': '', 'x.ts': '', 'only-ts.ts': '' },
    from: 'main.js',
    expect: { 'file:x.js': ['static'], 'file:only-ts.ts': ['static'] },
  },
  {
    name: 'a TypeScript file importing ./x.js gets x.ts, as TypeScript does',
    files: { 'main.ts': "import './x.js';", 'x.js': '', 'x.ts': '' },
    from: 'main.ts',
    expect: { 'file:x.ts': ['static'] },
  },
  {
    name: 'an import of a symbolic link to a file leads to the link',
    files: { 'main.ts': "import './linked';", 'linked.ts': { symlink: 'real/target.ts' }, 'real/target.ts': 'export {};' },
    from: 'main.ts',
    expect: { 'file:linked.ts': ['static'] },
  },
  {
    name: 'every kind of reference, one edge per target',
    files: {
      'a.ts': [
        "import { b } from './b';",
        "import type { B } from './b';",
        "export * from './c';",
        "export type { C } from './c';",
        'const d = await import(`./d`);',
        "const e = require('./e');",
        "import f = require('./f');",
        "type G = import('./g').G;",
        "const notLiteral = await import('./' + 'h');",
        'const i = require(`./i`);',
      ].join('\n'),
      'b.ts': 'export const b = 1; export type B = 1;',
      'c.ts': 'export type C = 1;',
      'd.ts': '',
      'e.ts': '',
      'f.ts': 'export = 1;',
      'g.ts': 'export type G = 1;',
      'h.ts': '',
      'i.ts': '',
    },
    from: 'a.ts',
    expect: {
      'file:b.ts': ['static', 'type-only'],
      'file:c.ts': ['re-export', 'type-only'],
      'file:d.ts': ['dynamic'],
      'file:e.ts': ['require'],
      'file:f.ts': ['require'],
      'file:g.ts': ['type-only'],
      'file:i.ts': ['require'],
    },
  },
  {
    // The `import(` that is a dynamic import, or in a comment, does not hide the one that is a type.
    name: 'an import() type in a variable annotation, beside a dynamic import and a comment',
    files: {
      'a.ts': [
        "// the old code did import('./old') here",
        "const d = await import('./d');",
        "export const g: import('./g').G = 1;",
        'export function f(x: Array<import("./h").H>) { return x; }',
      ].join('\n'),
      'd.ts': '',
      'g.ts': 'export type G = 1;',
      'h.ts': 'export type H = 1;',
      'old.ts': '',
    },
    from: 'a.ts',
    expect: { 'file:d.ts': ['dynamic'], 'file:g.ts': ['type-only'], 'file:h.ts': ['type-only'] },
  },
  {
    name: 'require() deep in functions, methods and arrows, beside a dynamic import; not in comments or strings',
    files: {
      'a.js': [
        "/* require('./in-comment') */",
        'const s = "require(\'./in-string\')";',
        "export async function f() { if (s) { return [require('./b'), await import('./d')]; } }",
        'export class K { m() { return () => require(`./c`); } }',
        "module.exports = { x: (() => require('./e'))() };",
      ].join('\n'),
      'b.js': '',
      'c.js': '',
      'd.js': '',
      'e.js': '',
      'in-comment.js': '',
      'in-string.js': '',
    },
    from: 'a.js',
    expect: { 'file:b.js': ['require'], 'file:c.js': ['require'], 'file:d.js': ['dynamic'], 'file:e.js': ['require'] },
  },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const repo = await makeRepo(t, c.files);
    const graph = await indexRepository({ repository: repo, env: {} });
    const edges = graph.edges.filter((edge) => edge.kind === 'imports' && edge.source === `file:${c.from}`);
    t.same(Object.fromEntries(edges.map((edge) => [edge.target, edge.references])), c.expect);
    for (const edge of edges) t.equal(edge.id, `imports:${edge.source}->${edge.target}`);
    const targets = new Set(edges.map((edge) => edge.target));
    for (const id of targets)
      t.ok(
        graph.nodes.some((node) => node.id === id),
        `${id} is a node`,
      );
  });
}

t.test('package nodes: one per name, built-ins marked, no container', async (t) => {
  const repo = await makeRepo(t, { 'a.ts': "import 'react';\nimport 'react/jsx-runtime';\nimport 'fs';", 'b.ts': "import 'node:fs';\nimport 'react';" });
  const graph = await indexRepository({ repository: repo, env: {} });
  const packages = graph.nodes.filter((node) => node.kind === 'package');
  t.same(
    packages.sort((a, b) => a.id.localeCompare(b.id)),
    [
      { id: 'pkg:node:fs', kind: 'package', name: 'node:fs', path: 'node:fs', builtin: true },
      { id: 'pkg:react', kind: 'package', name: 'react', path: 'react' },
    ],
  );
  const react = graph.edges.find((edge) => edge.id === 'imports:file:a.ts->pkg:react');
  t.same(react?.specifiers, ['react', 'react/jsx-runtime'], 'specifiers are kept in order');
});

t.test('an import that leads nowhere is reported, not guessed', async (t) => {
  const repo = await makeRepo(t, {
    'a.ts': "import './missing';\nimport '@/alias/not/configured';\nimport './ignored.js';",
    '.gitignore': 'ignored.js\n',
    'ignored.js': '',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.equal(graph.edges.filter((edge) => edge.kind === 'imports').length, 0);
  t.equal(graph.build.unresolvedCount, 3);
  t.match(graph.build.unresolved, [
    { file: 'a.ts', specifier: './missing', reason: String },
    { file: 'a.ts', specifier: '@/alias/not/configured', reason: String },
    { file: 'a.ts', specifier: './ignored.js', reason: /not indexed/ },
  ]);
});

t.test('a missing or non-string source in a file that does not parse is no import; a written empty one is unresolved', async (t) => {
  const repo = await makeRepo(t, {
    'a.ts': "import './b';\nimport x from ;\nexport * from;\nimport { y } from 1;",
    'b.ts': '',
    'c.ts': "type T = import('');\nexport * from '';",
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  t.same(
    graph.edges.filter((edge) => edge.kind === 'imports').map((edge) => [edge.id, edge.specifiers]),
    [['imports:file:a.ts->file:b.ts', ['./b']]],
  );
  t.same(
    graph.build.unresolved.map((entry) => [entry.file, entry.specifier]),
    [
      ['c.ts', ''],
      ['c.ts', ''],
    ],
    'only the written ones',
  );
  t.match(
    graph.nodes.find((node) => node.id === 'file:a.ts'),
    { error: /syntax error/ },
  );
});
