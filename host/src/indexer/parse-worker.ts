/**
 * A worker thread of the file reader pool: reads and parses the files it is
 * sent, in batches, and answers with their facts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type FileFacts, readFileFacts } from './file-reader.js';
import { loadAnalyzersOf } from './source-analyzers.js';

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
parentPort!.on('message', async ({ id, files }: ReadRequest) => {
  // A tree-sitter grammar loads on the thread's first file of its language (never rejects: a failed load is each
  // file's error). Batches that come meanwhile wait for the same load.
  await loadAnalyzersOf(files);
  const facts = files.map((file): FileFacts => readFileFacts(root, file, maxFileBytes));
  parentPort!.postMessage({ id, facts } satisfies ReadResponse);
});
