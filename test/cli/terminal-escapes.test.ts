/**
 * What the repository and plugins name reaches the terminal shown, never
 * obeyed: control characters in file names, plugin messages, summaries,
 * errors and log lines come out of the `strata` CLI escaped (`\u001b`),
 * on standard output and standard error, in text, and in JSON and text log
 * lines.
 */
import t, { type Test } from 'tap';
import { pluginCode, pluginsFolder } from '../helpers/fixture-plugins.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { runStrata } from '../helpers/strata-cli.ts';

// Four strata commands, three of them indexing the repository and starting a sandbox.
t.setTimeout(240_000);

const NO_SERVER = 'http://127.0.0.1:9';
/** Sets the terminal's title (OSC 0, ended by BEL), turns text red (CSI), and a C1 CSI (U+009B) that some terminals obey. */
const HOSTILE = '\x1b]0;owned\x07\x1b[31m\u009b2J';
const SHOWN = '\\u001b]0;owned\\u0007\\u001b[31m\\u009b2J';
const FILE = `src/title${HOSTILE}.ts`;

/** Logs, reports progress, then fails or returns a summary, each naming HOSTILE. */
const NOISY = {
  id: 'noisy',
  parameters: { type: 'object', properties: { fail: { type: 'boolean' } }, additionalProperties: false },
  code: pluginCode(`
    ctx.log('log line ${escapeForSource(HOSTILE)}');
    ctx.progress(1, 10, 'step ${escapeForSource(HOSTILE)}');
    // Long enough for the CLI to ask for the progress (every 500 ms) and show it.
    const end = Date.now() + 1500;
    while (Date.now() < end);
    if (ctx.params.fail) throw new Error('boom ${escapeForSource(HOSTILE)}');
    return { summary: { 'key ${escapeForSource(HOSTILE)}': 'value ${escapeForSource(HOSTILE)}' } };
  `),
};

/** HOSTILE as JavaScript source inside single quotes (the plugin's code holds escapes, not the characters). */
function escapeForSource(text: string): string {
  return [...text]
    .map((char) => (char.charCodeAt(0) < 0x20 || char.charCodeAt(0) >= 0x7f ? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}` : char))
    .join('');
}

/** The first C0 (but a line break), DEL or C1 character of `text`, with where it is; undefined when there is none. */
function firstRawControl(text: string): string | undefined {
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if ((code < 0x20 && code !== 10) || (code >= 0x7f && code <= 0x9f))
      return `U+${code.toString(16).padStart(4, '0')} at ${at}: ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 30))}`;
  }
  return undefined;
}

function shownNotObeyed(t: Test, text: string, what: string): void {
  t.equal(firstRawControl(text), undefined, `${what}: no raw control character`);
  t.ok(text.includes(SHOWN), `${what}: the escaped form is shown`);
}

async function hostileRepo(t: Test): Promise<string> {
  return makeRepo(t, { [FILE]: 'export function f(x: number) {\n  if (x) return 1;\n  return 2;\n}\n' });
}

t.test('a file name with escape sequences, in the summary of strata overlay apply', async (t) => {
  const repo = await hostileRepo(t);
  const applied = runStrata(t, ['overlay', 'apply', 'complexity', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await applied.exited, 0, applied.stderr());
  t.match(applied.stdout(), /maxCyclomaticFunction: src\/title/, 'the summary names the file');
  shownNotObeyed(t, applied.stdout(), 'standard output');
  t.equal(firstRawControl(applied.stderr()), undefined, 'standard error: no raw control character');
  // The repository's path is printed too: its name is the test's, but the line goes through the same escaping.
  t.match(applied.stderr(), /working on .* directly/);
});

t.test("a plugin's progress, summary, error and status", async (t) => {
  const repo = await hostileRepo(t);
  const plugins = await pluginsFolder(t, [NOISY]);
  const common = ['--server', NO_SERVER, '--repo', repo, '--plugins', plugins];

  const applied = runStrata(t, ['overlay', 'apply', 'noisy', ...common]);
  t.equal(await applied.exited, 0, applied.stderr());
  t.match(applied.stdout(), /key .*: value /, 'the summary is printed');
  shownNotObeyed(t, applied.stdout(), 'the summary');
  t.match(applied.stderr(), /Applying noisy: 1\/10 step /, 'the progress is printed');
  shownNotObeyed(t, applied.stderr(), 'the progress');

  const failed = runStrata(t, ['overlay', 'apply', 'noisy', '--params', '{"fail": true}', ...common]);
  t.equal(await failed.exited, 1);
  t.match(failed.stderr(), /strata: .*boom /, 'the error is printed');
  shownNotObeyed(t, failed.stderr(), 'the error');
  t.equal(firstRawControl(failed.stdout()), undefined, 'and nothing raw on standard output');

  // Without a server a failed apply is not kept: the status is the last good one's.
  const status = runStrata(t, ['overlay', 'status', 'noisy', ...common]);
  t.equal(await status.exited, 0, status.stderr());
  t.match(status.stdout(), /noisy: active\n(.*\n)* {2}key .*: value /, "the status shows the last good apply's summary");
  shownNotObeyed(t, status.stdout(), 'the status');
});

/** Serves the hostile repository with the noisy plugin, applies it once, and stops: what `strata serve` printed. */
async function serveNoisy(t: Test, extraArgs: string[] = []): Promise<ReturnType<typeof runStrata>> {
  const repo = await hostileRepo(t);
  const plugins = await pluginsFolder(t, [NOISY]);
  const served = runStrata(t, ['serve', repo, '--port', '0', '--no-watch', '--no-built-ins', '--plugins', plugins, ...extraArgs]);
  const url = await served.url();
  const response = await fetch(`${url}/api/overlays/noisy/apply`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({}),
  });
  t.equal(response.status, 200, 'the apply runs');
  served.child.kill('SIGTERM');
  await served.exited;
  return served;
}

t.test("strata serve: the host's log lines, JSON, escape C1 too (JSON.stringify leaves it)", async (t) => {
  const served = await serveNoisy(t);
  const lines = served
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'));
  const logged = lines.find((line) => line.includes('log line'));
  t.ok(logged, "the plugin's log line is in the host's log");
  t.same(JSON.parse(logged ?? '{}').msg, `log line ${HOSTILE}`, 'still JSON, read back as what the plugin logged');
  shownNotObeyed(t, served.stderr(), 'standard error');
  t.equal(firstRawControl(served.stdout()), undefined, 'standard output: no raw control character');
});

t.test("strata serve --log-format text: the host's text log lines escape what they read back from JSON", async (t) => {
  const served = await serveNoisy(t, ['--log-format', 'text']);
  t.ok(
    served
      .stderr()
      .split('\n')
      .some((line) => /^\d\d:\d\d:\d\d INFO {2}log line /.test(line)),
    "the plugin's log line is a text line",
  );
  shownNotObeyed(t, served.stderr(), 'standard error');
  t.equal(firstRawControl(served.stdout()), undefined, 'standard output: no raw control character');
});

t.test('strata cycles, impact and check: file names with escapes and bidirectional controls are shown escaped', async (t) => {
  // U+202E (right-to-left override) shows what follows reversed: "src/evil\u202etxt.ts" would read as another name.
  const reversed = 'src/evil\u202etxt.ts';
  const titled = FILE;
  const repo = await makeRepo(t, {
    [reversed]: `import { f } from './title${HOSTILE}.js';\nexport const g = f;\n`,
    [titled]: "import { g } from './evil\u202etxt.js';\nexport function f() { return g; }\n",
    'rules.json': JSON.stringify({ forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] }),
  });
  const bidi = (text: string): string | undefined => /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.exec(text)?.[0];
  const cycles = runStrata(t, ['cycles', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await cycles.exited, 0, cycles.stderr());
  t.match(cycles.stdout(), /^1 import cycle, 2 files in them:/);
  shownNotObeyed(t, cycles.stdout(), 'strata cycles');
  t.equal(bidi(cycles.stdout()), undefined, 'strata cycles: no raw bidirectional control');
  t.ok(cycles.stdout().includes('src/evil\\u202etxt.ts'), 'strata cycles: the override is shown as \\u202e');

  const impact = runStrata(t, ['impact', 'file:src/evil\u202etxt.ts', '--server', NO_SERVER, '--repo', repo]);
  t.equal(await impact.exited, 0, impact.stderr());
  shownNotObeyed(t, impact.stdout(), 'strata impact');
  t.equal(bidi(impact.stdout()), undefined, 'strata impact: no raw bidirectional control');

  const check = runStrata(t, ['check', '--rules', `${repo}/rules.json`, '--server', NO_SERVER, '--repo', repo]);
  t.equal(await check.exited, 1);
  shownNotObeyed(t, check.stdout(), 'strata check');
  t.equal(bidi(check.stdout()), undefined, 'strata check: no raw bidirectional control');
});
