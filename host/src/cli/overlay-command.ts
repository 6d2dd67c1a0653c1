import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import { glob, isDynamicPattern } from 'tinyglobby';
import { StrataError } from '../errors/strata-error.js';
import type { withOfflineOverlays } from '../index.js';
import { type LongRequestAnswer, longRequest } from './long-request.js';
import { PLUGINS_OPTION_HELP, pluginDirectories } from './plugin-directories.js';
import { ApplyProgressLine, ProgressLine } from './progress-line.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

const DEFAULT_SERVER = 'http://localhost:5050';
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An answer from the server (or from the in-process host) that is an error. */
class OperationError extends Error {
  override readonly name = 'OperationError';
}

/** The options `serverOptions` adds. */
export interface CommonOptions {
  server: string;
  repo: string;
  token?: string;
  plugins?: string[];
}

interface ApplyOptions extends CommonOptions {
  since?: string;
  until?: string;
  report?: string[];
  teams?: string;
  params?: string;
}

/** The options of a command that works on a server or, when none answers, on the repository: `--server`, `--repo`, `--plugins`, `--token`. */
export function serverOptions(command: Command): Command {
  return command
    .option('--server <url>', 'server to talk to', DEFAULT_SERVER)
    .option('--repo <dir>', 'repository to work on when no server answers', '.')
    .option('--plugins <dir...>', `when no server answers: ${PLUGINS_OPTION_HELP} (a running server has its own: strata serve --plugins)`)
    .addOption(new Option('--token <token>', 'bearer token for a server that requires one').env('STRATA_AUTH_TOKEN'));
}

/** `strata overlay list|status|apply|remove` (spec 4.4). */
export function overlayCommand(): Command {
  const command = new Command('overlay').description(
    'apply, remove and inspect overlays, on a running server or, when none answers, on the repository directly',
  );
  serverOptions(
    command
      .command('apply')
      .description('apply the overlays of a plugin')
      .argument('<plugin>', 'plugin id: git-activity, test-coverage, complexity, ownership, hotspots, change-coupling, or a plugin of your own')
      .option('--since <date>', 'git-activity, hotspots, change-coupling: start of the range (ISO date; default six months before --until)')
      .option('--until <date>', 'git-activity, hotspots, change-coupling, ownership: end of the range (ISO date; default now)')
      .option('--report <path|glob...>', "test-coverage: Cobertura XML reports, as paths or glob patterns such as 'coverage/**/cobertura-coverage.xml'")
      .option('--teams <path>', 'ownership: team mapping file, {"teams": {"<team>": ["<e-mail>", ...]}}')
      .option('--params <json>', 'any plugin: parameters as a JSON object'),
  )
    .addHelpText(
      'after',
      `
Examples:
  $ strata overlay apply git-activity --since 2026-01-01 --until 2026-06-30
  $ strata overlay apply test-coverage --report 'coverage/**/cobertura-coverage.xml'
  $ strata overlay apply complexity
  $ strata overlay apply ownership --teams teams.json
  $ strata overlay apply todo-density --params '{"markers": ["TODO"]}' --server http://build-box:5050
  $ strata overlay apply my-plugin --plugins ../my-plugin     (your plugin, without a server)

Files named here are read by this command and their contents sent, so it
works against a remote server too.`,
    )
    .action(async (plugin: string, options: ApplyOptions) => {
      const status = await applyOverlay(plugin, options, await applyBody(options));
      writeLine(process.stdout, `Applied ${plugin}: ${status.styledNodes} nodes styled in ${(Number(status.durationMs) / 1000).toFixed(1)} s`);
      for (const [name, value] of Object.entries(status.summary ?? {})) writeLine(process.stdout, `  ${name}: ${value}`);
    });

  serverOptions(command.command('remove').description('remove the overlays of a plugin').argument('<plugin>', 'plugin id')).action(
    async (plugin: string, options: CommonOptions) => {
      await perform(options, { method: 'DELETE', path: `/api/overlays/${encodeURIComponent(plugin)}/apply`, plugin }, ({ overlays }) =>
        overlays.remove(plugin),
      );
      writeLine(process.stdout, `Removed the overlays of ${plugin}`);
    },
  );

  serverOptions(command.command('status').description("show a plugin's overlay status").argument('<plugin>', 'plugin id')).action(
    async (plugin: string, options: CommonOptions) => {
      const status = (await perform(options, { method: 'GET', path: `/api/overlays/${encodeURIComponent(plugin)}/status`, plugin }, ({ served }) =>
        served.status(plugin),
      )) as Status;
      writeLine(process.stdout, `${plugin}: ${status.state}`);
      if (status.appliedAt) writeLine(process.stdout, `  applied at ${status.appliedAt} in ${status.durationMs} ms, ${status.styledNodes} nodes styled`);
      if (status.params && Object.keys(status.params).length > 0) writeLine(process.stdout, `  parameters: ${JSON.stringify(status.params)}`);
      for (const [name, value] of Object.entries(status.summary ?? {})) writeLine(process.stdout, `  ${name}: ${value}`);
      if (status.error) writeLine(process.stdout, `  error (${status.error.kind}): ${status.error.message}`);
    },
  );

  serverOptions(command.command('list').description('list the plugins and their overlays')).action(async (options: CommonOptions) => {
    const listed = (await perform(options, { method: 'GET', path: '/api/overlays', envelope: false }, async ({ served, plugins }) => ({
      plugins: plugins.list().map((record) => ({
        id: record.id,
        loaded: record.state === 'loaded',
        reason: record.reason,
        overlays: record.overlays,
        overlayState: served.stateOf(record.id),
      })),
    }))) as { plugins: Array<{ id: string; loaded: boolean; reason?: string; overlays: Array<{ id: string; name: string }>; overlayState: string }> };
    for (const plugin of listed.plugins) {
      const overlays = plugin.overlays.map((overlay) => `${overlay.id} (${overlay.name})`).join(', ');
      writeLine(process.stdout, plugin.loaded ? `${plugin.id}  ${plugin.overlayState}  ${overlays}` : `${plugin.id}  not loaded: ${plugin.reason}`);
    }
  });
  return command;
}

/**
 * Applies `plugin`'s overlays with `body` on the server or, when none
 * answers, on the repository (checked before it is indexed), showing the
 * apply's progress meanwhile; resolves with the overlay's status.
 */
export async function applyOverlay(plugin: string, options: CommonOptions, body: Record<string, unknown>): Promise<Status> {
  const progress = new ApplyProgressLine(`Applying ${plugin}`);
  const statusPath = `/api/overlays/${encodeURIComponent(plugin)}/status`;
  try {
    const request = {
      method: 'POST',
      path: `/api/overlays/${encodeURIComponent(plugin)}/apply`,
      plugin,
      body,
      whileSent: (get: (path: string) => Promise<unknown>) => progress.follow(() => get(statusPath) as Promise<Status>),
    };
    return (await perform(options, request, async ({ overlays, served, buildGraph }) => {
      await overlays.checkApply(plugin, body);
      await buildGraph();
      progress.follow(() => served.status(plugin));
      return overlays.apply(plugin, body);
    })) as Status;
  } finally {
    progress.stop();
  }
}

/** An overlay's status, as `GET /api/overlays/{id}/status` gives it. */
export interface Status {
  state: string;
  styledNodes: number;
  durationMs: number | null;
  appliedAt: string | null;
  params: Record<string, unknown> | null;
  summary?: Record<string, unknown>;
  error: { kind: string; message: string } | null;
  progress?: { done: number; total?: number; message?: string } | null;
}

type OfflineWork = Parameters<typeof withOfflineOverlays<unknown>>[1];

/**
 * Sends the request to the server; when nothing answers there, does the
 * same work in this process on the repository's data directory.
 */
async function perform(
  options: CommonOptions,
  /** `plugin`: the one plugin the request is about; without a server, only that plugin is loaded. */
  request: { method: string; path: string; plugin?: string; body?: unknown; envelope?: boolean; whileSent?: (get: (path: string) => Promise<unknown>) => void },
  offline: OfflineWork,
): Promise<unknown> {
  const base = options.server.replace(/\/+$/, '');
  const plugins = options.plugins && pluginDirectories(options.plugins);
  const authorization = options.token ? { authorization: `Bearer ${options.token}` } : undefined;
  let response: LongRequestAnswer | undefined;
  try {
    const sent = longRequest(base + request.path, {
      method: request.method,
      headers: { ...(request.body !== undefined && { 'content-type': 'application/json' }), ...authorization },
      ...(request.body !== undefined && { body: JSON.stringify(request.body) }),
    });
    // While the server works on it, the caller may ask it other things (an apply's progress).
    request.whileSent?.(async (path) => ((await (await fetch(base + path, { headers: authorization })).json()) as { data: unknown }).data);
    response = await sent;
  } catch {
    response = undefined;
  }
  if (response) {
    if (plugins)
      writeLine(process.stderr, `--plugins is for when no server answers: the server at ${base} loads plugins from its own folders (strata serve --plugins).`);
    const parsed = await serverAnswer(response, base);
    return request.envelope === false ? parsed : parsed?.data;
  }
  const repository = path.resolve(options.repo);
  if (!statSync(repository, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`no server answers at ${base}, and --repo ${repository} is not a directory`);
  writeLine(process.stderr, `No server answers at ${base}; working on ${repository} directly.`);
  const indexing = new ProgressLine();
  try {
    const { withOfflineOverlays } = await import('../index.js');
    return await withOfflineOverlays(
      {
        repository,
        env: process.env,
        ...(plugins && { flags: { plugins: { directories: plugins } } }),
        onProgress: indexing.update,
        ...(request.plugin !== undefined && { onlyPlugin: request.plugin }),
      },
      offline,
    );
  } catch (error) {
    if (error instanceof StrataError) throw new OperationError(`${error.message} (${error.code})`);
    throw error;
  } finally {
    indexing.done();
  }
}

/** What a server answered: its JSON, or (not JSON, or an error) an `OperationError` saying so, with the code and the server. */
export async function serverAnswer(
  response: { status: number; ok: boolean; text(): Promise<string> },
  base: string,
  onError?: (error: { message?: string; code?: string }, status: number) => void,
): Promise<{ data?: unknown; error?: { message?: string; code?: string } } | null> {
  const text = await response.text();
  let parsed: { data?: unknown; error?: { message?: string; code?: string } } | null;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new OperationError(`${base} answered ${response.status} with something that is not JSON; is it a Strata server?`);
  }
  if (!response.ok) {
    if (parsed?.error) onError?.(parsed.error, response.status);
    throw new OperationError(`${parsed?.error?.message ?? `status ${response.status}`} (${parsed?.error?.code ?? response.status}, from ${base})`);
  }
  return parsed;
}

/** The apply body from the flags: parameters, and the contents of the files named. */
async function applyBody(options: ApplyOptions): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  if (options.params !== undefined) {
    let params: unknown;
    try {
      params = JSON.parse(options.params);
    } catch (error) {
      throw new UsageError(`--params: not valid JSON (${(error as Error).message})`);
    }
    if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new UsageError('--params: must be a JSON object');
    Object.assign(body, params);
  }
  Object.assign(body, rangeOf(options));
  const inputs: Record<string, string[]> = {};
  if (options.report) inputs.report = await readReports(options.report);
  if (options.teams !== undefined) inputs.teams = [readTeams(options.teams)];
  if (Object.keys(inputs).length > 0) body.inputs = inputs;
  return body;
}

/** `--since` and `--until` as an apply's parameters, each checked to be a date that exists. */
export function rangeOf(options: { since?: string; until?: string }): { since?: string; until?: string } {
  const range: { since?: string; until?: string } = {};
  for (const name of ['since', 'until'] as const) {
    const value = options[name];
    if (value === undefined) continue;
    if (!ISO_DATE.test(value) || !existingDate(value))
      throw new UsageError(`--${name}: ${JSON.stringify(value)} is not a date (YYYY-MM-DD, or an ISO 8601 date-time)`);
    range[name] = value;
  }
  return range;
}

function existingDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year!, month! - 1, day!));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month! - 1 && date.getUTCDate() === day && !Number.isNaN(Date.parse(value));
}

async function readReports(patterns: string[]): Promise<string[]> {
  const files: string[] = [];
  for (const pattern of patterns) {
    if (isDynamicPattern(pattern)) {
      const matched = await glob(pattern, { absolute: true, onlyFiles: true, dot: true });
      if (matched.length === 0) throw new UsageError(`--report: ${JSON.stringify(pattern)} matches no file`);
      files.push(...matched.sort());
    } else {
      if (!existsSync(pattern)) throw new UsageError(`--report: ${pattern} does not exist`);
      if (!statSync(pattern).isFile()) throw new UsageError(`--report: ${pattern} is not a file`);
      files.push(path.resolve(pattern));
    }
  }
  return [...new Set(files)].map((file) => readFileSync(file, 'utf8'));
}

/** Reads and checks a team mapping file (spec 2.7): `{"teams": {"<team>": ["<e-mail>", ...]}}`. */
function readTeams(file: string): string {
  if (!existsSync(file)) throw new UsageError(`--teams: ${file} does not exist`);
  const text = readFileSync(file, 'utf8');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--teams: ${file} is not valid JSON (${(error as Error).message})`);
  }
  const teams = (parsed as { teams?: unknown } | null)?.teams;
  if (typeof teams !== 'object' || teams === null || Array.isArray(teams))
    throw new UsageError(`--teams: ${file} must hold {"teams": {"<team>": ["<e-mail>", ...]}}`);
  for (const [team, members] of Object.entries(teams)) {
    if (!Array.isArray(members) || members.some((member) => typeof member !== 'string' || !member.includes('@'))) {
      throw new UsageError(`--teams: ${file}: team ${JSON.stringify(team)} must be an array of e-mail addresses`);
    }
  }
  return text;
}

export { OperationError };
