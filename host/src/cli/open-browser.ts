import { spawn } from 'node:child_process';

/** The command that opens a URL in the user's browser on this platform. */
function openerFor(platform: NodeJS.Platform, url: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url.replace(/&/g, '^&')] };
  return { command: 'xdg-open', args: [url] };
}

/**
 * Opens `url` in the default browser (`strata serve --open`). Resolves once
 * the opener has started, or rejects with why it could not; the opener is
 * left to run on its own.
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { command, args } = openerFor(platform, url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) => reject(new Error(error.code === 'ENOENT' ? `${command} is not installed` : error.message)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
