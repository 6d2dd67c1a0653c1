/**
 * `@strata/sdk-testing`: run a plugin in the same sandbox the host uses,
 * after the same checks, against a graph and the capability answers you
 * give, and assert on its styles, legends and summary. In the spirit of
 * ESLint's RuleTester: `run()` for one case, `cases()` for a table of them;
 * `fixtureRepository()` makes the graph of a folder of fixture files.
 *
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { PluginTester } from '@strata/sdk-testing';
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * const result = await tester.run({
 *   graph: { nodes: [{ id: 'file:a.ts', kind: 'file', name: 'a.ts', path: 'a.ts', language: 'typescript', loc: 10 }] },
 *   capabilities: { 'files:read': (path: string) => '// TODO\n' },
 * });
 * // The TODO-density example: one marker in 10 lines of code.
 * assert.deepEqual(result.style('density', 'file:a.ts'), { color: '#e53935', value: 10, badge: '1' });
 * ```
 *
 * @packageDocumentation
 * @module \@strata/sdk-testing
 */

export type { ApplyProgress, SandboxFailureKind, SandboxLimits } from '@strata/sandbox';
export { type FixtureRepository, fixtureRepository } from './fixture-repository.js';
export {
  type CapabilityAnswer,
  type PluginTestCase,
  PluginTestError,
  type PluginTestErrorCode,
  PluginTester,
  type PluginTestResult,
  type PluginTestTableCase,
  type TestedEdge,
  type TestFunction,
} from './plugin-tester.js';
