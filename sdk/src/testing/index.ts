/**
 * `@strata/sdk/testing`: run a plugin in the same sandbox the host uses,
 * against a small graph and the capability answers you give, and assert on
 * its styles and legends. In the spirit of ESLint's RuleTester.
 *
 * ```ts
 * import { PluginTester } from '@strata/sdk/testing';
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * const result = await tester.run({
 *   graph: { nodes: [{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts' }] },
 *   capabilities: { 'files:read': (path) => '// TODO\n' },
 * });
 * assert.deepEqual(result.style('todo-density', 'file:a.ts'), { color: '#e53935', value: 1 });
 * ```
 */
import { readFile } from 'node:fs/promises';
import { Ajv, type ValidateFunction } from 'ajv';
import semver from 'semver';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { GraphEdge, GraphNode } from '../graph.js';
import type { Capability, NodeStyle } from '../plugin.js';
import { graphPayloadOf } from '../sandbox/graph-payload.js';
import { PluginSandbox } from '../sandbox/plugin-sandbox.js';
import type { ApplyProgress, SandboxLimits } from '../sandbox/protocol.js';
import { SDK_VERSION } from '../version.js';

const ajv = new Ajv({ allErrors: false, strict: false, useDefaults: true });

/** A capability's answer: a function of the plugin's arguments (it may throw to refuse), or a fixed value. */
export type CapabilityAnswer = ((...args: any[]) => unknown) | Exclude<unknown, Function>;

/** One run of the plugin. */
export interface PluginTestCase {
  /** The graph the plugin sees (nodes and edges as the API gives them). */
  graph: { nodes: GraphNode[]; edges?: GraphEdge[] };
  /** Apply parameters. */
  params?: Record<string, unknown>;
  /** Input texts, by name. */
  inputs?: Record<string, string | string[]>;
  /** Answers of the host capabilities (`git:log`, `git:blame`, `files:read`, `files:list`). A declared capability without an answer is refused. */
  capabilities?: Partial<Record<Capability, CapabilityAnswer>>;
  /** Sandbox limits for this run. */
  limits?: Partial<SandboxLimits>;
}

/** What a run produced. */
export interface PluginTestResult {
  /** Per overlay: its legend and its styles by node id. */
  overlays: Record<string, { legend: Record<string, string>; styles: Record<string, NodeStyle> }>;
  /** The style one overlay gave one node, or undefined. */
  style(overlayId: string, nodeId: string): NodeStyle | undefined;
  /** Every capability call the plugin made, in order. */
  calls: Array<{ capability: Capability; args: unknown[] }>;
  /** Lines the plugin logged. */
  logs: string[];
  /** The progress reports the host heard (`ctx.progress`, at most five a second), in order. */
  progress: ApplyProgress[];
  /** The summary the apply returned. */
  summary: Record<string, number | string>;
}

/** Runs one plugin folder (its `package.json` `strata` field and built entry) in the sandbox. */
export class PluginTester {
  private readonly folder: string;
  private validate: ValidateFunction | undefined;

  /** `folder`: the plugin's folder (a path or a `file:` URL). */
  constructor(folder: string | URL) {
    this.folder = typeof folder === 'string' ? path.resolve(folder) : fileURLToPath(folder);
  }

  /** Runs the plugin once against `testCase`; rejects with the sandbox's error when the plugin fails. */
  async run(testCase: PluginTestCase): Promise<PluginTestResult> {
    const pkg = JSON.parse(await readFile(path.join(this.folder, 'package.json'), 'utf8')) as {
      strata?: { id?: string; entry?: string; sdk?: string; capabilities?: Capability[]; parameters?: Record<string, unknown> };
    };
    const manifest = pkg.strata;
    if (!manifest?.entry) throw new Error(`${this.folder}/package.json has no strata.entry`);
    // The host's checks before it runs a plugin: its SDK range, then the parameters against their schema.
    if (typeof manifest.sdk !== 'string' || semver.validRange(manifest.sdk) === null) throw new Error(`${this.folder}/package.json: strata.sdk must be a semver range`);
    if (!semver.satisfies(SDK_VERSION, manifest.sdk, { includePrerelease: true })) throw new Error(`built for SDK ${manifest.sdk}; this SDK is ${SDK_VERSION}: the host would not load it`);
    const params = structuredClone(testCase.params ?? {});
    if (manifest.parameters) {
      this.validate ??= ajv.compile(manifest.parameters);
      if (!this.validate(params)) {
        const error = this.validate.errors?.[0];
        const field = `params${(error?.instancePath ?? '').replace(/\//g, '.')}`;
        throw new Error(`${field}: ${error?.message ?? 'is invalid'}: the host would answer 400 INVALID_PARAMETER`);
      }
    }
    const entryPath = path.resolve(this.folder, manifest.entry);
    const code = await readFile(entryPath, 'utf8').catch(() => {
      throw new Error(`${entryPath} does not exist: build the plugin first (strata plugin build)`);
    });
    const calls: PluginTestResult['calls'] = [];
    const logs: string[] = [];
    const progress: ApplyProgress[] = [];
    const answers = testCase.capabilities ?? {};
    const sandbox = await PluginSandbox.start({
      pluginId: manifest.id ?? path.basename(this.folder),
      code,
      filename: pathToFileURL(entryPath).href,
      folder: this.folder,
      capabilities: manifest.capabilities ?? [],
      limits: testCase.limits,
      callCapability: async (capability, args) => {
        calls.push({ capability, args });
        const answer = answers[capability];
        if (answer === undefined) throw new Error(`the test gave no answer for capability ${capability}`);
        return typeof answer === 'function' ? await (answer as (...a: unknown[]) => unknown)(...args) : structuredClone(answer);
      },
      log: (message) => logs.push(message),
    });
    try {
      const graph = graphPayloadOf(testCase.graph.nodes, testCase.graph.edges ?? [], 1);
      const inputs = Object.fromEntries(Object.entries(testCase.inputs ?? {}).map(([name, value]) => [name, typeof value === 'string' ? [value] : value]));
      const result = await sandbox.apply({ params, inputs }, graph, { onProgress: (report) => progress.push(report) });
      const overlays: PluginTestResult['overlays'] = {};
      result.overlays.forEach((columns, index) => {
        const styles: Record<string, NodeStyle> = {};
        for (let i = 0; i < graph.nodes.id.length; i++) {
          const style: NodeStyle = {};
          if (columns.color[i] !== 0) style.color = `#${(columns.color[i]! - 0x1000000).toString(16).padStart(6, '0')}`;
          if (!Number.isNaN(columns.size[i]!)) style.size = columns.size[i]!;
          if (!Number.isNaN(columns.value[i]!)) style.value = columns.value[i]!;
          if (columns.badge[i] !== -1) style.badge = columns.badgeText[columns.badge[i]!]!;
          if (Object.keys(style).length > 0) styles[graph.nodes.id[i]!] = style;
        }
        overlays[columns.id] = { legend: columns.legend ?? sandbox.overlays[index]!.legend, styles };
      });
      return { overlays, style: (overlayId, nodeId) => overlays[overlayId]?.styles[nodeId], calls, logs, progress, summary: result.summary };
    } finally {
      await sandbox.dispose();
    }
  }
}

export { SandboxError } from '../sandbox/plugin-sandbox.js';
export type { ApplyProgress, SandboxLimits } from '../sandbox/protocol.js';
