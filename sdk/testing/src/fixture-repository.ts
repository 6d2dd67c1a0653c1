import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GraphEdge, GraphNode } from '@strata/sdk';

/**
 * A folder of fixture files, indexed the way the host indexes a repository.
 *
 * @example
 * ```ts
 * import { fixtureRepository, type FixtureRepository } from '@strata/sdk-testing';
 *
 * const fixture: FixtureRepository = await fixtureRepository(new URL('./fixtures/app', import.meta.url));
 * console.log(fixture.folder, fixture.graph.nodes.length);
 * console.log(await fixture.capabilities['files:read']('src/index.ts'));
 * ```
 */
export interface FixtureRepository {
  /** The folder's absolute path. */
  folder: string;
  /** Its graph: directories, files and symbols with their import and contains edges, as `GET /api/graph` serves them. */
  graph: {
    /** The folder's directories, files and symbols. */
    nodes: GraphNode[];
    /** Their `contains` and `imports` edges. */
    edges: GraphEdge[];
  };
  /**
   * Answers for the plugin's file capabilities, read from the folder:
   * `files:read` (a path leaving the folder is refused, as the host refuses
   * one leaving the repository).
   */
  capabilities: {
    /** Reads a file of the folder by its relative path, as UTF-8 text. */
    'files:read': (file: string) => Promise<string>;
  };
}

/**
 * Indexes `folder` with the host's own indexer (`@strata/host`, a dev
 * dependency of a plugin already: it is the `strata` command), so that a
 * test runs a plugin on real nodes and import edges rather than on a graph
 * written by hand. Nothing is written into the folder.
 *
 * @param folder - The fixture folder (a path or a `file:` URL).
 *
 * @example
 * ```ts
 * import { fixtureRepository, PluginTester } from '@strata/sdk-testing';
 *
 * const tester = new PluginTester(new URL('..', import.meta.url));
 * const fixture = await fixtureRepository(new URL('./fixtures/app', import.meta.url));
 * const result = await tester.run({ graph: fixture.graph, capabilities: fixture.capabilities });
 * ```
 */
export async function fixtureRepository(folder: string | URL): Promise<FixtureRepository> {
  const root = await realpath(typeof folder === 'string' ? path.resolve(folder) : fileURLToPath(folder));
  let host: typeof import('@strata/host');
  try {
    host = await import('@strata/host');
  } catch (error) {
    throw new Error(`fixtureRepository needs @strata/host, which indexes the folder (npm install --save-dev @strata/host): ${(error as Error).message}`);
  }
  const graph = await host.indexRepository({ repository: root, flags: { index: { cache: false } } });
  return {
    folder: root,
    graph: { nodes: graph.nodes, edges: graph.edges },
    capabilities: {
      'files:read': async (file: string) => {
        const resolved = path.resolve(root, file);
        const relative = path.relative(root, resolved);
        if (typeof file !== 'string' || path.isAbsolute(file) || relative.startsWith('..') || path.isAbsolute(relative))
          throw new Error(`files.read: ${file}: outside the repository`);
        const real = await realpath(resolved).catch(() => resolved);
        if (path.relative(root, real).startsWith('..')) throw new Error(`files.read: ${file}: outside the repository`);
        return readFile(real, 'utf8').catch(() => {
          throw new Error(`files.read: ${file}: no such file`);
        });
      },
    },
  };
}
