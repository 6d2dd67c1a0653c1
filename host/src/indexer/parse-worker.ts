/**
 * A worker thread of the file reader pool: reads and parses the files it is
 * sent, in batches, and answers with their facts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readFileFacts, type FileFacts } from './file-reader.js';
import { LanguageDetector } from './language-detector.js';

interface WorkerOptions {
  root: string;
  maxFileBytes: number;
}

/** A batch of repository-relative paths to read. */
export interface ReadRequest {
  id: number;
  files: string[];
}

/** The facts of a batch, in the order of its paths. */
export interface ReadResponse {
  id: number;
  facts: FileFacts[];
}

const { root, maxFileBytes } = workerData as WorkerOptions;
const languages = new LanguageDetector();
const CONCURRENCY = 16;

parentPort!.on('message', async ({ id, files }: ReadRequest) => {
  const facts = new Array<FileFacts>(files.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < files.length) {
      const index = next++;
      facts[index] = await readFileFacts(root, files[index]!, maxFileBytes, languages);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, lane));
  parentPort!.postMessage({ id, facts } satisfies ReadResponse);
});
