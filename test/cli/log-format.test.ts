// strata serve's log lines: readable text on a terminal, JSON lines when
// standard error is not one (a pipe, a file, a log collector), and either
// when --log-format or STRATA_LOG_FORMAT asks. The terminal is a pseudo-
// terminal that util-linux's `script` opens (Debian's bsdutils, an essential
// package: always there).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t, { type Test } from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { runStrata, STRATA_BIN } from '../helpers/strata-cli.ts';
import { until } from '../helpers/until.ts';

t.setTimeout(240_000);

/** A text log line: local time, level, message, then `key=value` fields. */
const TEXT_LINE = /^\d\d:\d\d:\d\d INFO {2}serving {2}url=http:\/\/127\.0\.0\.1:\d+ nodes=\d+ edges=\d+$/m;
/** The same record as a JSON line. */
const JSON_LINE = /^\{"level":"info",.*"msg":"serving"\}$/m;

/** A shell word: `text` in single quotes. */
const quoted = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * Runs `strata serve` under a pseudo-terminal (its standard output and error
 * both the terminal), stops it with SIGTERM once it has logged that it
 * serves, and gives what the terminal showed.
 */
async function serveOnTerminal(t: Test, repo: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const pidFile = path.join(repo, 'strata.pid');
  const command = `echo $$ > ${quoted(pidFile)}; exec ${[process.execPath, STRATA_BIN, 'serve', repo, '--port', '0', '--no-watch', '--no-built-ins', ...args].map(quoted).join(' ')}`;
  const childEnv: Record<string, string | undefined> = { ...process.env, TERM: 'dumb', ...env };
  for (const name of Object.keys(childEnv)) if (name.startsWith('STRATA_') && !env[name]) delete childEnv[name];
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  t.teardown(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  let shown = '';
  child.stdout.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until(() => /serving {2}url=|"msg":"serving"/.test(shown), 'strata serve logging that it serves', 60_000);
  process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
  t.equal(await exited, 0, 'stopped cleanly');
  return asDisplayed(shown);
}

/** What a terminal shows of `output`: a line rewritten in place (`\r`, then erase to its end) shows its last text. */
function asDisplayed(output: string): string {
  return output
    .replaceAll('\r\n', '\n')
    .split('\n')
    .map((line) => line.split('\r').at(-1)!.replaceAll('\x1b[K', ''))
    .join('\n');
}

t.test('on a terminal: readable log lines; JSON lines when asked', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const text = await serveOnTerminal(t, repo, []);
  t.match(text, /Strata is serving .* at http:\/\/127\.0\.0\.1:\d+/, 'the URL is printed');
  t.match(text, TEXT_LINE, 'the log line reads as text');
  t.match(text, /^\d\d:\d\d:\d\d INFO {2}indexed repository {2}files=\d+ /m, 'a line logged while the progress line shows starts a line of its own');
  t.notMatch(text, /^\{"level"/m, 'no JSON line');
  t.match(text, /^\d\d:\d\d:\d\d INFO {2}stopped$/m, 'down to the last line');

  const json = await serveOnTerminal(t, repo, ['--log-format', 'json']);
  t.match(json, JSON_LINE, '--log-format json: JSON lines on the terminal too');
  t.notMatch(json, TEXT_LINE);

  const fromEnv = await serveOnTerminal(t, repo, [], { STRATA_LOG_FORMAT: 'json' });
  t.match(fromEnv, JSON_LINE, 'STRATA_LOG_FORMAT=json likewise');
});

t.test('not on a terminal: JSON lines; text when asked', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const serve = async (args: string[], env: Record<string, string> = {}): Promise<string> => {
    const run = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--no-built-ins', ...args], { env });
    await run.url();
    await until(() => /serving/.test(run.stderr()), 'the serving log line', 30_000);
    run.child.kill('SIGTERM');
    t.equal(await run.exited, 0);
    return run.stderr();
  };
  const piped = await serve([]);
  t.match(piped, JSON_LINE, 'a pipe gets JSON lines');
  for (const line of piped.split('\n').filter((line) => line.startsWith('{'))) JSON.parse(line);
  t.notMatch(piped, TEXT_LINE);

  t.match(await serve(['--log-format', 'text']), TEXT_LINE, '--log-format text: text into the pipe');
  t.match(await serve([], { STRATA_LOG_FORMAT: 'text' }), TEXT_LINE, 'STRATA_LOG_FORMAT=text likewise');

  const wrong = runStrata(t, ['serve', repo, '--log-format', 'xml']);
  t.equal(await wrong.exited, 1);
  t.match(wrong.stderr(), /--log-format <format>' argument 'xml' is invalid\. Allowed choices are auto, text, json/);
  const wrongEnv = runStrata(t, ['serve', repo, '--port', '0'], { env: { STRATA_LOG_FORMAT: 'xml' } });
  t.equal(await wrongEnv.exited, 2);
  t.match(wrongEnv.stderr(), /STRATA_LOG_FORMAT/);
});
