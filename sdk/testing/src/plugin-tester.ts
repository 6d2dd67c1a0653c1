import { deepStrictEqual, fail, match, ok } from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe as nodeDescribe, it as nodeIt } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  type ApplyProgress,
  applyFailure,
  checkApplyRequest,
  graphPayloadOf,
  notLoaded,
  PluginManifestError,
  type PluginPackage,
  PluginSandbox,
  readPluginPackage,
  SandboxError,
  type SandboxFailureKind,
  type SandboxLimits,
  styleAt,
  withDeclaredParameters,
} from '@strata/sandbox';
import type { Capability, GraphEdge, GraphNode, Legend, NodeStyle } from '@strata/sdk';

/**
 * A capability's answer: a function of the plugin's arguments (it may throw to refuse), or a fixed value.
 *
 * @example
 * ```ts
 * import type { CapabilityAnswer } from '@strata/sdk-testing';
 *
 * const sources: Record<string, string> = { 'src/a.ts': '// TODO\n' };
 * const read: CapabilityAnswer = (path: string) => {
 *   if (!(path in sources)) throw new Error(`files.read: ${path}: no such file`);
 *   return sources[path];
 * };
 * const log: CapabilityAnswer = []; // git.log answers no commits
 * ```
 */
// biome-ignore lint/suspicious/noExplicitAny: any answer function stands in for a capability, whatever its parameters.
// biome-ignore lint/complexity/noBannedTypes: the rest are fixed answers, anything but a function.
export type CapabilityAnswer = ((...args: any[]) => unknown) | Exclude<unknown, Function>;

/**
 * One run of the plugin.
 *
 * @example
 * ```ts
 * import type { PluginTestCase } from '@strata/sdk-testing';
 *
 * const testCase: PluginTestCase = {
 *   graph: {
 *     nodes: [
 *       { id: 'dir:.', kind: 'directory', name: '.', path: '.' },
 *       { id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', parent: 'dir:.', language: 'typescript', loc: 10 },
 *     ],
 *   },
 *   params: { markers: ['TODO'] },
 *   capabilities: { 'files:read': () => '// TODO\n' },
 *   limits: { wallTimeMs: 2000 },
 * };
 * ```
 */
export interface PluginTestCase {
  /** The graph the plugin sees (nodes and edges as the API gives them; `fixtureRepository()` makes one from files). */
  graph: {
    /** The nodes, with the ids, kinds, paths and figures the plugin reads. */
    nodes: GraphNode[];
    /** The edges (none when absent). */
    edges?: GraphEdge[];
  };
  /** Apply parameters (the apply body without `inputs`). */
  params?: Record<string, unknown>;
  /** Input texts, by name (the apply body's `inputs`). */
  inputs?: Record<string, string | string[]>;
  /** Answers to the capability calls the plugin makes, by capability (`files:read`, `git:log`, ...). */
  capabilities?: Partial<Record<Capability, CapabilityAnswer>>;
  /** Tighter sandbox limits for this case (the host's defaults otherwise). */
  limits?: Partial<SandboxLimits>;
}

/**
 * One edge an `edge` overlay gave, as the host serves it (`GET /api/overlays/{id}/edges`).
 *
 * @example
 * ```ts
 * import type { TestedEdge } from '@strata/sdk-testing';
 *
 * const expected: TestedEdge = { source: 'file:a.ts', target: 'file:b.ts', weight: 0.5, value: 2, label: '50 %' };
 * ```
 */
export interface TestedEdge {
  /** Id of the node the edge leaves. */
  source: string;
  /** Id of the node it reaches. */
  target: string;
  /** Its weight. */
  weight: number;
  /** Its label, when the plugin gave one. */
  label?: string;
  /** Its value, when the plugin gave one. */
  value?: number;
}

/**
 * What a run produced.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { PluginTester } from '@strata/sdk-testing';
 *
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * const result = await tester.run({
 *   graph: { nodes: [{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', language: 'typescript', loc: 10 }] },
 *   capabilities: { 'files:read': () => '// TODO\n' },
 * });
 * assert.equal(result.style('density', 'file:a.ts')?.badge, '1');
 * assert.deepEqual(result.calls, [{ capability: 'files:read', args: ['a.ts'] }]);
 * assert.deepEqual(result.logs, []);
 * ```
 */
export interface PluginTestResult {
  /** Per overlay: its legend and its styles by node id. */
  overlays: Record<
    string,
    {
      /** The overlay's legend: the one the plugin set in this apply, or the one it declared. */
      legend: Legend;
      /** The styles the overlay gave, by node id (nodes it did not paint are absent). */
      styles: Record<string, NodeStyle>;
      /** The edges the overlay gave (`setEdge`), sorted by source then target id; empty for an overlay that gave none. */
      edges: TestedEdge[];
    }
  >;
  /** The style one overlay gave one node, or undefined. */
  style(overlayId: string, nodeId: string): NodeStyle | undefined;
  /** The edge one overlay gave from one node to another, or undefined. */
  edge(overlayId: string, source: string, target: string): TestedEdge | undefined;
  /** Every capability call the plugin made, in order. */
  calls: Array<{
    /** The capability called (`files:read`, `git:log`, ...). */
    capability: Capability;
    /** The arguments the plugin passed (`['src/a.ts']` for `ctx.files.read('src/a.ts')`). */
    args: unknown[];
  }>;
  /** Lines the plugin logged. */
  logs: string[];
  /** The progress reports the host heard (`ctx.progress`, at most five a second, and the last), in order. */
  progress: ApplyProgress[];
  /** The summary the apply returned. */
  summary: Record<string, number | string>;
  /**
   * The result as plain, ordered data for a snapshot (`t.assert.snapshot`,
   * tap's `t.matchSnapshot`): overlays by id, each with its legend and its
   * styles sorted by node id, and the summary. Nothing in it varies from run
   * to run.
   */
  snapshot(): {
    /** The overlays by id, in id order. */
    overlays: Record<
      string,
      {
        /** The overlay's legend. */
        legend: Legend;
        /** Its styles, in node id order. */
        styles: Record<string, NodeStyle>;
        /** Its edges, by source then target id; absent when it gave none. */
        edges?: TestedEdge[];
      }
    >;
    /** The summary, in key order. */
    summary: Record<string, number | string>;
  };
}

/**
 * What the host would answer: `INVALID_PARAMETER` (400: parameters or inputs
 * refused, or the plugin threw `InvalidInputError`), `PLUGIN_NOT_LOADED`
 * (409: the manifest, the entry or the plugin's registration refused) or
 * `PLUGIN_FAILED` (500: it threw, ran out of time or memory, or gave an
 * invalid result).
 *
 * @example
 * ```ts
 * import { PluginTester, PluginTestError, type PluginTestErrorCode } from '@strata/sdk-testing';
 *
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * async function codeOf(params: Record<string, unknown>): Promise<PluginTestErrorCode | undefined> {
 *   try {
 *     await tester.run({ graph: { nodes: [] }, params });
 *     return undefined;
 *   } catch (error) {
 *     if (error instanceof PluginTestError) return error.code;
 *     throw error;
 *   }
 * }
 * await codeOf({ markers: 'TODO' }); // 'INVALID_PARAMETER'
 * ```
 */
export type PluginTestErrorCode = 'INVALID_PARAMETER' | 'PLUGIN_NOT_LOADED' | 'PLUGIN_FAILED';

/**
 * A run that failed, with the code and the message the host would answer with.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { PluginTester, PluginTestError } from '@strata/sdk-testing';
 *
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * await assert.rejects(tester.run({ graph: { nodes: [] }, params: { markers: 'TODO' } }), (error) => {
 *   assert.ok(error instanceof PluginTestError);
 *   assert.equal(error.code, 'INVALID_PARAMETER');
 *   assert.equal(error.message, 'body.markers: must be array');
 *   return true;
 * });
 * ```
 */
export class PluginTestError extends Error {
  /** Always `'PluginTestError'`. */
  override readonly name = 'PluginTestError';
  /**
   * A failure with the host's code and message.
   *
   * @param code - What the host would answer.
   * @param message - The host's message.
   * @param kind - How the sandbox failed, when it did.
   */
  constructor(
    /** What the host would answer: `INVALID_PARAMETER`, `PLUGIN_NOT_LOADED` or `PLUGIN_FAILED`. */
    readonly code: PluginTestErrorCode,
    message: string,
    /** How the sandbox failed, when it did (`threw`, `wall-time`, `cpu-time`, `memory`, `invalid-input`...). */
    readonly kind?: SandboxFailureKind,
  ) {
    super(message);
  }
}

/**
 * What a case of `cases()` expects: the styles, legends and summary it lists, or an error.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import type { PluginTestTableCase } from '@strata/sdk-testing';
 *
 * const graph = { nodes: [{ id: 'file:a.ts', kind: 'file' as const, name: 'a.ts', path: 'a.ts', language: 'typescript', loc: 10 }] };
 * const cases: PluginTestTableCase[] = [
 *   {
 *     name: 'one marker in ten lines',
 *     graph,
 *     capabilities: { 'files:read': () => '// TODO\n' },
 *     styles: { density: { 'file:a.ts': { color: '#e53935', value: 10, badge: '1' } } },
 *     check: (result) => assert.equal(result.calls.length, 1),
 *   },
 *   { name: 'markers must be an array', graph, params: { markers: 'TODO' }, error: { code: 'INVALID_PARAMETER', message: /must be array/ } },
 * ];
 * ```
 */
export interface PluginTestTableCase extends PluginTestCase {
  /** The test's name. */
  name: string;
  /**
   * Per overlay, every style it gives, by node id: a node not listed must
   * have none. Overlays not listed are not checked.
   */
  styles?: Record<string, Record<string, NodeStyle>>;
  /** Per overlay, every edge it gives, in any order (compared by source then target). Overlays not listed are not checked. */
  edges?: Record<string, TestedEdge[]>;
  /** Per overlay, its legend. */
  legends?: Record<string, Legend>;
  /** The summary, in full. */
  summary?: Record<string, number | string>;
  /**
   * The failure expected instead: a code, and what its message contains (a
   * string) or matches (a regular expression).
   */
  error?: {
    /** The code expected. */
    code?: PluginTestErrorCode;
    /** What the message contains (a string) or matches (a regular expression). */
    message?: string | RegExp;
  };
  /** Anything else to check of the result. */
  check?(result: PluginTestResult): void | Promise<void>;
}

/**
 * A test runner's function that registers a test or a group of tests under a
 * name: `describe` and `it` of `node:test`, mocha or vitest; what
 * `PluginTester.describe` and `PluginTester.it` take.
 *
 * @example
 * ```ts
 * import t from 'tap';
 * import { PluginTester, type TestFunction } from '@strata/sdk-testing';
 *
 * const group: TestFunction = (name, body) => t.test(name, async () => body());
 * PluginTester.describe = group;
 * ```
 */
export type TestFunction = (name: string, body: () => void | Promise<void>) => unknown;

/**
 * Runs one plugin folder (its `package.json` `strata` field and built
 * entry) in the sandbox the host uses, after the checks the host makes: the
 * manifest, the SDK range, the parameter schema (the manifest's or
 * `definePlugin`'s) and the request. Failures carry the host's code and
 * message.
 *
 * @example
 * ```ts
 * import t from 'tap';
 * import { PluginTester } from '@strata/sdk-testing';
 *
 * // test/plugin.test.ts of a plugin: the folder is the plugin's, one level up.
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * t.test('badges a file with a TODO', async (t) => {
 *   const result = await tester.run({
 *     graph: { nodes: [{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', language: 'typescript', loc: 10 }] },
 *     capabilities: { 'files:read': () => '// TODO\n' },
 *   });
 *   t.equal(result.style('density', 'file:a.ts')?.badge, '1');
 * });
 * ```
 */
export class PluginTester {
  /**
   * What `cases()` groups its tests with: `describe` of `node:test` unless set (to tap's, vitest's, mocha's...).
   *
   * @example
   * ```ts
   * import t from 'tap';
   * import { PluginTester } from '@strata/sdk-testing';
   *
   * // cases() with tap's tests: a group per title, a subtest per case.
   * PluginTester.describe = (name, body) =>
   *   t.test(name, async (group) => {
   *     PluginTester.it = (caseName, run) => group.test(caseName, async () => run());
   *     await body();
   *   });
   * ```
   */
  static describe: TestFunction = nodeDescribe;
  /** What `cases()` makes each test with: `it` of `node:test` unless set. */
  static it: TestFunction = nodeIt;

  private readonly folder: string;

  /**
   * A tester of the plugin in `folder`.
   *
   * @param folder - The plugin's folder (a path or a `file:` URL): the one with its `package.json`.
   */
  constructor(folder: string | URL) {
    this.folder = typeof folder === 'string' ? path.resolve(folder) : fileURLToPath(folder);
  }

  /**
   * Runs the plugin once against `testCase`; rejects with a `PluginTestError` when the host would refuse or the plugin fails.
   *
   * @param testCase - The graph, parameters, inputs and capability answers of the run.
   */
  async run(testCase: PluginTestCase): Promise<PluginTestResult> {
    let pkg: PluginPackage;
    try {
      pkg = readPluginPackage(this.folder);
    } catch (error) {
      if (!(error instanceof PluginManifestError)) throw error;
      throw new PluginTestError('PLUGIN_NOT_LOADED', notLoaded(error.pluginId ?? path.basename(this.folder), error.message));
    }
    const id = pkg.manifest.id;
    const code = await readFile(pkg.entryPath, 'utf8').catch(() => {
      throw new PluginTestError(
        'PLUGIN_NOT_LOADED',
        notLoaded(id, `its entry ${pkg.manifest.entry} does not exist${pkg.sourcePath ? '; build it with strata plugin build' : ''}`),
      );
    });
    const calls: PluginTestResult['calls'] = [];
    const logs: string[] = [];
    const progress: ApplyProgress[] = [];
    const answers = testCase.capabilities ?? {};
    let sandbox: PluginSandbox;
    try {
      sandbox = await PluginSandbox.start({
        pluginId: id,
        code,
        filename: pathToFileURL(pkg.entryPath).href,
        folder: this.folder,
        capabilities: pkg.manifest.capabilities ?? [],
        limits: testCase.limits,
        callCapability: async (capability, args) => {
          calls.push({ capability, args });
          const answer = answers[capability];
          if (answer === undefined) throw new Error(`the test gave no answer for capability ${capability}`);
          return typeof answer === 'function' ? await (answer as (...a: unknown[]) => unknown)(...args) : structuredClone(answer);
        },
        log: (message, source) => logs.push(source === 'sandbox' ? `sandbox process: ${message}` : message),
      });
    } catch (error) {
      if (!(error instanceof SandboxError)) throw error;
      throw new PluginTestError('PLUGIN_NOT_LOADED', notLoaded(id, error.message), error.kind);
    }
    try {
      try {
        pkg = withDeclaredParameters(pkg, sandbox.parameters);
      } catch (error) {
        if (!(error instanceof PluginManifestError)) throw error;
        throw new PluginTestError('PLUGIN_NOT_LOADED', notLoaded(id, error.message));
      }
      const body = structuredClone(testCase.inputs === undefined ? { ...testCase.params } : { ...testCase.params, inputs: testCase.inputs });
      const checked = checkApplyRequest(pkg, body);
      if (!checked.ok) throw new PluginTestError('INVALID_PARAMETER', checked.message);
      const graph = graphPayloadOf(testCase.graph.nodes, testCase.graph.edges ?? [], 1);
      let result;
      try {
        result = await sandbox.apply(checked.request, graph, { onProgress: (report) => progress.push(report) });
      } catch (error) {
        if (!(error instanceof SandboxError)) throw error;
        // The host's words, without what it says of a last good result.
        const answer = applyFailure(id, error.kind, error.message);
        throw new PluginTestError(answer.code, answer.message, error.kind);
      }
      const overlays: PluginTestResult['overlays'] = {};
      result.overlays.forEach((columns, index) => {
        const styles: Record<string, NodeStyle> = {};
        for (let i = 0; i < graph.nodes.id.length; i++) {
          const style = styleAt(columns, i);
          if (style) styles[graph.nodes.id[i]!] = style;
        }
        const edges: TestedEdge[] = [];
        const { source, target, weight, value, label } = columns.edges;
        for (let k = 0; k < source.length; k++) {
          const edge: TestedEdge = { source: graph.nodes.id[source[k]!]!, target: graph.nodes.id[target[k]!]!, weight: weight[k]! };
          if (label[k] != null) edge.label = label[k]!;
          if (!Number.isNaN(value[k]!)) edge.value = value[k]!;
          edges.push(edge);
        }
        edges.sort((a, b) => compareIds(a.source, b.source) || compareIds(a.target, b.target));
        overlays[columns.id] = { legend: columns.legend ?? sandbox.overlays[index]!.legend, styles, edges };
      });
      const summary = result.summary;
      return {
        overlays,
        style: (overlayId, nodeId) => overlays[overlayId]?.styles[nodeId],
        edge: (overlayId, source, target) => overlays[overlayId]?.edges.find((edge) => edge.source === source && edge.target === target),
        calls,
        logs,
        progress,
        summary,
        snapshot: () => snapshotOf(overlays, summary),
      };
    } finally {
      await sandbox.dispose();
    }
  }

  /**
   * Registers one test per case, grouped under `title` (with
   * `PluginTester.describe` and `PluginTester.it`), in the spirit of
   * ESLint's RuleTester: each case runs the plugin and checks the styles,
   * legends and summary it lists, or the error it expects.
   *
   * @param title - The name of the group of tests.
   * @param cases - The cases, each with a distinct `name`.
   *
   * @example
   * ```ts
   * import { PluginTester } from '@strata/sdk-testing';
   *
   * // The plugin `strata plugin new loc-size` scaffolds: files sized by their lines of code.
   * const graph = { nodes: [{ id: 'file:a.ts', kind: 'file' as const, name: 'a.ts', path: 'a.ts', loc: 200 }] };
   * new PluginTester(new URL('..', import.meta.url)).cases('loc-size', [
   *   { name: 'sizes by lines', graph, params: { scale: 100 }, styles: { size: { 'file:a.ts': { size: 3, value: 200, color: '#a0b9d5' } } } },
   *   { name: 'a negative scale is refused', graph, params: { scale: -1 }, error: { code: 'INVALID_PARAMETER', message: 'body.scale: must be > 0' } },
   * ]);
   * ```
   */
  cases(title: string, cases: readonly PluginTestTableCase[]): void {
    const names = new Set<string>();
    for (const testCase of cases) {
      if (names.has(testCase.name)) throw new Error(`${title}: two cases are named ${JSON.stringify(testCase.name)}`);
      names.add(testCase.name);
    }
    PluginTester.describe(title, () => {
      for (const testCase of cases) PluginTester.it(testCase.name, () => this.runCase(testCase));
    });
  }

  private async runCase(testCase: PluginTestTableCase): Promise<void> {
    const expectsError = testCase.error !== undefined;
    const outcome = await this.run(testCase).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    if (!outcome.ok) {
      if (!expectsError || !(outcome.error instanceof PluginTestError)) throw outcome.error;
      const { code, message } = testCase.error!;
      if (code !== undefined) deepStrictEqual(outcome.error.code, code, `the code of: ${outcome.error.message}`);
      if (typeof message === 'string')
        ok(
          outcome.error.message.includes(message),
          `expected the message to contain ${JSON.stringify(message)}; it is ${JSON.stringify(outcome.error.message)}`,
        );
      else if (message) match(outcome.error.message, message);
      return;
    }
    if (expectsError)
      fail(`expected ${testCase.error!.code ?? 'an error'}${testCase.error!.message ? ` (${String(testCase.error!.message)})` : ''}; the apply succeeded`);
    const { result } = outcome;
    for (const [overlayId, expected] of Object.entries(testCase.styles ?? {})) {
      ok(result.overlays[overlayId], `the plugin has no overlay ${JSON.stringify(overlayId)}; it has ${Object.keys(result.overlays).join(', ')}`);
      deepStrictEqual(sortedById(result.overlays[overlayId]!.styles), sortedById(expected), `the styles of overlay ${overlayId}`);
    }
    for (const [overlayId, expected] of Object.entries(testCase.edges ?? {})) {
      ok(result.overlays[overlayId], `the plugin has no overlay ${JSON.stringify(overlayId)}; it has ${Object.keys(result.overlays).join(', ')}`);
      const sorted = [...expected].sort((a, b) => compareIds(a.source, b.source) || compareIds(a.target, b.target));
      deepStrictEqual(result.overlays[overlayId]!.edges, sorted, `the edges of overlay ${overlayId}`);
    }
    for (const [overlayId, expected] of Object.entries(testCase.legends ?? {})) {
      ok(result.overlays[overlayId], `the plugin has no overlay ${JSON.stringify(overlayId)}`);
      deepStrictEqual(result.overlays[overlayId]!.legend, expected, `the legend of overlay ${overlayId}`);
    }
    if (testCase.summary !== undefined) deepStrictEqual(result.summary, testCase.summary, 'the summary');
    await testCase.check?.(result);
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function sortedById<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function snapshotOf(overlays: PluginTestResult['overlays'], summary: Record<string, number | string>): ReturnType<PluginTestResult['snapshot']> {
  const ordered: ReturnType<PluginTestResult['snapshot']>['overlays'] = {};
  for (const id of Object.keys(overlays).sort()) {
    const { legend, styles, edges } = overlays[id]!;
    ordered[id] = { legend, styles: sortedById(styles), ...(edges.length > 0 && { edges }) };
  }
  return { overlays: ordered, summary: sortedById(summary) };
}
