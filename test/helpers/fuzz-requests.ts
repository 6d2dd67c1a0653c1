// Random and crafted requests to every operation of a running server's
// OpenAPI document, each answer checked: never a 5xx (but PLUGIN_FAILED, a
// plugin's own failure, and the 503s that say "retry"), every error in the
// error shape with a code of the table and its status, every success JSON.
// Shared by test/http/fuzz.test.ts (a size for CI) and
// test/bench/reliability.bench.ts (a larger one).

import { ERROR_CODES, type ErrorCode } from '@strata/host';
import fc from 'fast-check';

/** One operation of the OpenAPI document. */
export interface Operation {
  method: 'GET' | 'POST' | 'DELETE';
  /** With `{name}` parameters. */
  path: string;
  parameters: string[];
  hasBody: boolean;
}

/** A request the fuzzer sent and what came back, when the answer broke a rule. */
export interface Finding {
  request: string;
  status: number;
  problem: string;
}

/** What a round of fuzzing did. */
export interface FuzzReport {
  requests: number;
  byStatus: Map<number, number>;
  findings: Finding[];
}

/** The operations to fuzz: all of the document's, but the event stream (it never ends). */
export function operationsOf(document: {
  paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; requestBody?: unknown }>>;
}): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    if (path === '/api/events') continue;
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'delete'].includes(method)) continue;
      operations.push({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: (operation.parameters ?? []).filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        hasBody: operation.requestBody !== undefined,
      });
    }
  }
  return operations;
}

const craftedSegments = [
  '..',
  '%',
  '%zz',
  '%00',
  '%2e%2e%2f',
  'file:src/index.ts',
  'sym:src/index.ts#main',
  'complexity',
  'git-activity',
  '../../etc/passwd',
  '\u0000',
  'a'.repeat(3000),
  '🙂',
  '%F0%9F',
  'constructor',
  '__proto__',
];
const craftedBodies = [
  '',
  ' ',
  '{',
  '{}',
  '[]',
  'null',
  'true',
  '0',
  '"x"',
  '{"positions":null}',
  '{"positions":{"file:src/index.ts":{"x":1e400,"y":0}}}',
  '{"positions":{"__proto__":{"x":1,"y":2}}}',
  '{"params":{"constructor":{"prototype":{}}}}',
  '{"iterations":-1}',
  '{"iterations":1e12}',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '{"a":"\\ud800"}',
  '\u00ff\u00fe',
  '{"positions":{"a":{"x":"1","y":2}}}',
  `{"inputs":{"report":"${'<x>'.repeat(1000)}"}}`,
];

function requestArbitrary(operations: Operation[]): fc.Arbitrary<{
  operation: Operation;
  segments: string[];
  raw: boolean;
  query: Record<string, string>;
  body: string | undefined;
  contentType: string | undefined;
  method: string;
}> {
  const segment = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 20 }), fc.constantFrom(...craftedSegments));
  const body = fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
    fc
      .dictionary(fc.constantFrom('positions', 'params', 'inputs', 'iterations', 'backend', 'seed', 'x'), fc.jsonValue({ maxDepth: 3 }))
      .map((value) => JSON.stringify(value)),
    fc.string({ maxLength: 200 }),
    fc.constantFrom(...craftedBodies),
  );
  return fc.record({
    operation: fc.constantFrom(...operations),
    segments: fc.array(segment, { minLength: 3, maxLength: 3 }),
    raw: fc.boolean(),
    query: fc.dictionary(
      fc.constantFrom('since', 'fields', 'x', 'limit', ''),
      fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('1', '-1', '1e99', '999999999999999999', 'NaN')),
    ),
    body: fc.option(body, { nil: undefined }),
    contentType: fc.option(
      fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data'),
      { nil: undefined },
    ),
    method: fc.constantFrom('', '', '', '', 'PUT', 'PATCH', 'HEAD'),
  });
}

/** Sends `count` requests built from `seed`, one after the other, and checks each answer. */
export async function fuzzServer(baseUrl: string, operations: Operation[], count: number, seed: number): Promise<FuzzReport> {
  const report: FuzzReport = { requests: 0, byStatus: new Map(), findings: [] };
  const samples = fc.sample(requestArbitrary(operations), { numRuns: count, seed });
  for (const sample of samples) {
    let path = sample.operation.path;
    sample.operation.parameters.forEach((name, i) => {
      const value = sample.segments[i % sample.segments.length]!;
      path = path.replace(`{${name}}`, sample.raw ? value.replace(/[/?#\s]/g, '_') : encodeURIComponent(value));
    });
    const query = new URLSearchParams(sample.query).toString();
    const method = sample.method || sample.operation.method;
    const headers: Record<string, string> = {};
    if (sample.contentType) headers['content-type'] = sample.contentType;
    const withBody = method !== 'GET' && method !== 'HEAD' && sample.body !== undefined;
    const described = `${method} ${path}${query ? `?${query}` : ''}${withBody ? ` body ${JSON.stringify(sample.body!.slice(0, 200))}` : ''}${sample.contentType ? ` (${sample.contentType})` : ''}`;
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}${query ? `?${query}` : ''}`, { method, headers, body: withBody ? sample.body : undefined });
    } catch (error) {
      // A URL or header the client itself refuses to send is no request at all; a failed connection is a finding.
      if (/invalid|Invalid/.test(String((error as Error).message)) && !/ECONN/.test(String((error as { cause?: { code?: string } }).cause?.code))) continue;
      report.requests++;
      report.findings.push({
        request: described,
        status: 0,
        problem: `no answer: ${(error as Error).message} ${(error as { cause?: Error }).cause?.message ?? ''}`,
      });
      continue;
    }
    report.requests++;
    report.byStatus.set(response.status, (report.byStatus.get(response.status) ?? 0) + 1);
    const text = await response.text();
    const problem = judge(response.status, method, text, response.headers.get('content-type'));
    if (problem) report.findings.push({ request: described, status: response.status, problem });
  }
  return report;
}

/** What is wrong with an answer; undefined when nothing is. */
function judge(status: number, method: string, text: string, contentType: string | null): string | undefined {
  if (method === 'HEAD') return status >= 500 ? `a ${status} to HEAD` : undefined;
  let body: { error?: { code?: string; message?: string } } | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON (${contentType}): ${text.slice(0, 120)}`;
  }
  if (status < 400) return undefined;
  const code = body?.error?.code;
  if (typeof code !== 'string' || !(code in ERROR_CODES)) return `an error without a code of the table: ${text.slice(0, 200)}`;
  if (typeof body?.error?.message !== 'string' || body.error.message === '') return `an error without a message: ${text.slice(0, 200)}`;
  if (ERROR_CODES[code as ErrorCode].status !== status) return `${code} with status ${status}, not ${ERROR_CODES[code as ErrorCode].status}`;
  if (status >= 500 && code !== 'PLUGIN_FAILED' && status !== 503) return `a ${status}: ${text.slice(0, 200)}`;
  return undefined;
}
