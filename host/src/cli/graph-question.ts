import { statSync } from 'node:fs';
import path from 'node:path';
import type { GraphAnalysis } from '../analysis/graph-analysis.js';
import { StrataError } from '../errors/strata-error.js';
import { OperationError, serverAnswer } from './overlay-command.js';
import { ProgressLine } from './progress-line.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

/** Where a question goes: the server, else the repository indexed here. */
export interface AskOptions {
  server: string;
  repo: string;
  token?: string;
}

/** A question sent to the server, or answered here when no server answers. */
export interface Question<T> {
  /** Path and query under the server's URL. */
  path: string;
  /** A JSON body: the question is then a POST. */
  body?: unknown;
  /** How a success of the server is read (default: the envelope's `data`, as JSON); for answers that are files. */
  read?(response: Response): Promise<T>;
  offline(analysis: GraphAnalysis): T | Promise<T>;
}

/** A node the question named is not in the graph. */
export class NodeNotFound extends Error {
  constructor(readonly id: string) {
    super(`node "${id}" does not exist`);
  }
}

/** The answer of the server, or when none answers, of this process after indexing the repository. */
let offlineAnalysis: Promise<GraphAnalysis> | undefined;

export async function ask<T>(options: AskOptions, question: Question<T>): Promise<T> {
  const base = options.server.replace(/\/+$/, '');
  const authorization = options.token ? { authorization: `Bearer ${options.token}` } : undefined;
  let response: Response | undefined;
  if (!offlineAnalysis) {
    try {
      response = await fetch(base + question.path, {
        method: question.body === undefined ? 'GET' : 'POST',
        headers: { ...authorization, ...(question.body !== undefined && { 'content-type': 'application/json' }) },
        ...(question.body !== undefined && { body: JSON.stringify(question.body) }),
      });
    } catch {
      response = undefined;
    }
  }
  if (response) {
    if (response.ok && question.read) return question.read(response);
    const parsed = await serverAnswer(response, base, (error, status) => {
      const id = status === 404 && error.code === 'NOT_FOUND' ? /node "(.*)" does not exist/.exec(error.message ?? '')?.[1] : undefined;
      if (id !== undefined) throw new NodeNotFound(id);
    });
    return parsed!.data as T;
  }
  offlineAnalysis ??= analyzeOffline(options, base);
  const analysis = await offlineAnalysis;
  try {
    return await question.offline(analysis);
  } catch (error) {
    if (error instanceof StrataError) {
      const id = error.code === 'NOT_FOUND' ? /node "(.*)" does not exist/.exec(error.message)?.[1] : undefined;
      if (id !== undefined) throw new NodeNotFound(id);
      throw new OperationError(`${error.message} (${error.code})`);
    }
    throw error;
  }
}

async function analyzeOffline(options: AskOptions, base: string): Promise<GraphAnalysis> {
  const repository = path.resolve(options.repo);
  if (!statSync(repository, { throwIfNoEntry: false })?.isDirectory())
    throw new UsageError(`no server answers at ${base}, and --repo ${repository} is not a directory`);
  writeLine(process.stderr, `No server answers at ${base}; indexing ${repository}.`);
  const indexing = new ProgressLine();
  try {
    const { analyzeRepository } = await import('../index.js');
    return await analyzeRepository({ repository, env: process.env, onProgress: indexing.update });
  } finally {
    indexing.done();
  }
}
