// The browser tests drive Debian's Chromium: `npm test` installs it when it is
// missing (as root, with apt-get), so that README's two commands are all a
// fresh Debian machine needs. Elsewhere it says what to install and fails.
import { execFileSync } from 'node:child_process';

function found(): string | undefined {
  if (process.env.STRATA_CHROMIUM) return process.env.STRATA_CHROMIUM;
  try {
    return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim().split('\n')[0] || undefined;
  } catch {
    return undefined;
  }
}

if (found() === undefined) {
  const canInstall = process.getuid?.() === 0 && hasAptGet();
  if (!canInstall) {
    console.error("The browser tests need Chromium: install Debian's (apt-get install -y chromium) or set STRATA_CHROMIUM to a Chromium's path.");
    process.exit(1);
  }
  console.log("Installing Debian's chromium for the browser tests (apt-get install -y chromium)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (found() === undefined) {
    console.error('apt-get installed chromium, yet no chromium command is on the PATH.');
    process.exit(1);
  }
}

function hasAptGet(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
