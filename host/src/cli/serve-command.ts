import { statSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import type { StrataSettings } from '../config/strata-config.js';
import { PLUGINS_OPTION_HELP, pluginDirectories } from './plugin-directories.js';
import { ProgressLine } from './progress-line.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

interface ServeOptions {
  port?: string;
  host?: string;
  dataDir?: string;
  config?: string;
  logLevel?: string;
  logFormat?: string;
  watch?: boolean;
  dev?: boolean;
  plugins?: string[];
  /** false with --no-built-ins. */
  builtIns?: boolean;
  open?: boolean;
}

/** `strata serve [repo]`: index a repository and serve its graph. */
export function serveCommand(): Command {
  return new Command('serve')
    .description('index a repository and serve its code graph over HTTP')
    .argument('[repo]', 'repository to serve', '.')
    .option('-p, --port <port>', 'TCP port (default: 5050)')
    .option('--host <address>', 'address to bind (default: 127.0.0.1)')
    .option('--data-dir <dir>', 'where Strata keeps its store (default: <repo>/.strata)')
    .option('--no-watch', 'do not follow edits to the repository')
    .option('--dev', 'plugin development: rebuild and reload plugins when their files change')
    .option('--plugins <dir...>', PLUGINS_OPTION_HELP)
    .option(
      '--no-built-ins',
      'load only the plugins of --plugins, not the built-in overlays (git-activity, test-coverage, complexity, ownership, hotspots, change-coupling)',
    )
    .option('--open', 'open the web UI in the default browser once it is served')
    .option('-c, --config <file>', 'configuration file (default: <repo>/strata.config.json)')
    .addOption(new Option('--log-level <level>', 'least severe level logged').choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']))
    .addOption(
      new Option('--log-format <format>', 'log lines as text or JSON (default: auto, text on a terminal, JSON otherwise)').choices(['auto', 'text', 'json']),
    )
    .addHelpText(
      'after',
      `
Settings come from, lowest first: defaults, strata.config.json (or --config),
STRATA_* environment variables (STRATA_PORT, STRATA_HOST, STRATA_DATA_DIR, ...),
then these flags.

Logs go to standard error: readable lines on a terminal, JSON lines when it is
not one (a file, a pipe, a log collector); --log-format or STRATA_LOG_FORMAT
chooses.

Examples:
  $ strata serve                 serve the current directory at http://127.0.0.1:5050
  $ strata serve --open          ... and open the code map in the browser
  $ strata serve ../app -p 8080  serve another repository on port 8080
  $ STRATA_AUTH_TOKEN=... strata serve --host 0.0.0.0`,
    )
    .action(async (repo: string, options: ServeOptions) => {
      const repository = path.resolve(repo);
      const stats = statSync(repository, { throwIfNoEntry: false });
      if (!stats) throw new UsageError(`${repository} does not exist`);
      if (!stats.isDirectory()) throw new UsageError(`${repository} is not a directory`);

      const flags: StrataSettings = {};
      if (options.port !== undefined) flags.port = numberOrRaw(options.port) as number;
      if (options.host !== undefined) flags.host = options.host;
      if (options.dataDir !== undefined) flags.dataDir = options.dataDir;
      if (options.watch === false) flags.watch = false;
      if (options.dev) flags.dev = true;
      if (options.plugins) flags.plugins = { directories: pluginDirectories(options.plugins) };
      if (options.builtIns === false) flags.plugins = { ...flags.plugins, builtIns: false };
      if (options.logLevel !== undefined) flags.logLevel = options.logLevel as StrataSettings['logLevel'];
      if (options.logFormat !== undefined) flags.logFormat = options.logFormat as StrataSettings['logFormat'];

      const progress = new ProgressLine();
      const started = performance.now();
      const { startStrata } = await import('../index.js');
      const strata = await startStrata({
        repository,
        configFile: options.config,
        env: process.env,
        flags,
        onProgress: progress.update,
      });
      // Stopped cleanly from here on, before the URL is out: a client that reads it and stops the server at once (a
      // test, a supervisor) got the default action of its signal (killed, nothing saved) in 2 of 4 tries without this.
      let signals = 0;
      const shutdown = (signal: string, why = `Received ${signal}`): void => {
        if (++signals > 1) {
          process.stderr.write(`Received ${signal} again; exiting without waiting.\n`);
          process.exit(130);
        }
        process.stderr.write(`${why}; finishing requests in flight and saving...\n`);
        strata.stop().then(
          () => process.exit(0),
          (error: unknown) => {
            writeLine(process.stderr, `strata: error while stopping: ${(error as Error).message}`);
            process.exit(1);
          },
        );
      };
      process.on('SIGINT', () => shutdown('SIGINT'));
      process.on('SIGTERM', () => shutdown('SIGTERM'));
      stopWithNpx(() => shutdown('SIGTERM', 'The npx that started this server ended'));
      progress.done();
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      writeLine(process.stderr, `Indexed ${repository} in ${seconds} s`);
      writeLine(process.stdout, `Strata is serving ${path.basename(repository)} at ${strata.url}  (API: ${strata.url}/api/graph)`);
      const pageUrl = browserUrl(strata.url);
      process.stdout.write(`Open ${pageUrl} in your browser to see the code map.\n`);
      if (options.open) {
        const { openInBrowser } = await import('./open-browser.js');
        await openInBrowser(pageUrl).catch((error: Error) =>
          writeLine(process.stderr, `Could not open a browser (${error.message}); open ${pageUrl} yourself.`),
        );
      }
    });
}

/**
 * Started by `npx strata serve`, the server stops when npx does: npm does not
 * pass a SIGTERM on to the command it runs, so stopping npx by its PID left
 * the server running, orphaned. Only under npx (`npm_command` is `exec`): a
 * server started in the background on purpose (`strata serve &` in a script
 * that then ends) keeps running.
 */
function stopWithNpx(stop: () => void): void {
  if (process.env.npm_command !== 'exec') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, 1000);
  timer.unref();
}

/** A served URL a browser can open: a server bound to every address is reached at localhost. */
function browserUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.hostname === '0.0.0.0' || parsed.hostname === '[::]') parsed.hostname = 'localhost';
  return parsed.origin;
}

/** Numbers pass as numbers; anything else passes as it is, for validation to name. */
function numberOrRaw(value: string): number | string {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}
