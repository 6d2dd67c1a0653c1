// `strata overlay status x | head -1`: a reader that stops early must not make the CLI crash with an EPIPE stack.
import { spawn } from 'node:child_process';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { STRATA_BIN } from '../helpers/strata-cli.ts';

/** An address where nothing listens: the CLI works on the repository itself. */
const NO_SERVER = 'http://127.0.0.1:9';

t.test('output into a pipe closed by its reader ends the CLI quietly, with status 0', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  for (const args of [
    ['overlay', 'list'],
    ['overlay', 'status', 'complexity'],
    ['overlay', 'apply', 'complexity'],
  ]) {
    const child = spawn(process.execPath, [STRATA_BIN, ...args, '--server', NO_SERVER, '--repo', repo], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the CLI has written anything.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    t.equal(code, 0, `${args.join(' ')}: exit 0`);
    t.notMatch(stderr, /EPIPE|Error:|\n\s+at /, `${args.join(' ')}: nothing on stderr (${JSON.stringify(stderr.slice(0, 300))})`);
  }
});
