import { Worker, type WorkerOptions } from 'node:worker_threads';

/** Options that load modules ahead of the process's own (`--import x`, `--require=x`...): written with the module or before it. */
const PRELOADS = ['--import', '--require', '-r', '--loader', '--experimental-loader'];

/** Whether `option` is one of `PRELOADS`, alone (its module follows) or with `=module`. */
function preload(option: string): 'alone' | 'joined' | undefined {
  if (PRELOADS.includes(option)) return 'alone';
  return PRELOADS.some((name) => option.startsWith(`${name}=`)) ? 'joined' : undefined;
}

/**
 * Starts a worker thread on `script` with the process's Node options but
 * two kinds:
 *
 * - `--input-type`, which applies only to code given on the command line and
 *   stops a thread whose script is a file before it starts (as under
 *   `node --input-type=module -e ...`);
 * - the modules loaded ahead of the process's own (`--import`, `--require`,
 *   `--loader`): a thread runs the host's own compiled modules and needs none
 *   of them, and each thread loaded them again, with their loader hooks (under
 *   tap's four, a thread's start cost 450 to 525 ms of CPU instead of 80).
 */
export function startThread(script: URL, options: WorkerOptions = {}): Worker {
  const argv = process.execArgv;
  const kept: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const option = argv[i]!;
    if (option === '--input-type' || preload(option) === 'alone') i++;
    else if (!option.startsWith('--input-type') && !preload(option)) kept.push(option);
  }
  if (kept.length === argv.length) return new Worker(script, options);
  try {
    return new Worker(script, { ...options, execArgv: kept });
  } catch (error) {
    // Options given explicitly must all apply to a thread (inherited ones that do not are ignored): none then.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(script, { ...options, execArgv: [] });
  }
}
