import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on `script` with the process's Node options but
 * `--input-type`, which applies only to code given on the command line and
 * stops a thread whose script is a file before it starts (as under
 * `node --input-type=module -e ...`).
 */
export function startThread(script: URL, options: WorkerOptions = {}): Worker {
  const argv = process.execArgv;
  if (!argv.some((option) => option.startsWith('--input-type'))) return new Worker(script, options);
  const execArgv = argv.filter((option, i) => !option.startsWith('--input-type') && argv[i - 1] !== '--input-type');
  try {
    return new Worker(script, { ...options, execArgv });
  } catch (error) {
    // Options given explicitly must all apply to a thread (inherited ones that do not are ignored): none then.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(script, { ...options, execArgv: [] });
  }
}
