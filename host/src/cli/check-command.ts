import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'commander';
import type { Log, ReportingDescriptor, Result } from 'sarif';
import { type RuleSet, RulesError } from '../analysis/dependency-rules.js';
import type { ViolationsAnswer } from '../analysis/graph-analysis.js';
import { repositoryRuleSet, ruleSetOfText } from '../analysis/repository-rules.js';
import type { RuleViolation } from '../analysis/rule-violations.js';
import { loadConfig } from '../config/config-loader.js';
import { HOST_VERSION } from '../host-version.js';
import { readOptional } from '../indexer/read-optional.js';
import { type AskOptions, ask } from './graph-question.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

const DEFAULT_SERVER = 'http://localhost:5050';
/** Most violations one answer holds (all of them are counted). */
const MAX_VIOLATIONS = 100_000;
/** Largest source file read to find a violation's line. */
const MAX_SOURCE_BYTES = 2 * 1024 * 1024;

interface CheckOptions extends AskOptions {
  rules?: string;
  format: 'text' | 'json' | 'sarif';
  output?: string;
  config?: string;
}

/** A rules file or rules given by the user that have mistakes: printed, exit 2. */
export class RulesFileError extends Error {
  override readonly name = 'RulesFileError';
}

/** `strata check`: the architecture rules, checked against the import graph, for a CI gate. */
export function checkCommand(): Command {
  return new Command('check')
    .description("check the imports against architecture rules (dependency-cruiser's forbidden shape); exit 1 on an error-level violation")
    .option(
      '--rules <file>',
      'a JSON file of rules: {"forbidden": [...]} (a .dependency-cruiser.json) or strata.config.json\'s shape (default: the repository\'s strata.config.json "rules", else its .dependency-cruiser.json)',
    )
    .addOption(new Option('--format <format>', 'output').choices(['text', 'json', 'sarif']).default('text'))
    .option('-o, --output <file>', 'write the output to a file instead of standard output')
    .option('--server <url>', 'server to ask', DEFAULT_SERVER)
    .option('--repo <dir>', 'repository to index and check when no server answers', '.')
    .option('-c, --config <file>', 'configuration file (default: <repo>/strata.config.json)')
    .addOption(new Option('--token <token>', 'bearer token for a server that requires one').env('STRATA_AUTH_TOKEN'))
    .addHelpText(
      'after',
      `
Rules take dependency-cruiser's "forbidden" shape: name, severity (error, warn,
info, ignore), comment, from {path, pathNot, orphan} and to {path, pathNot,
circular, dependencyTypes, dependencyTypesNot}. A .dependency-cruiser.json is
read as it is; a configuration in JavaScript is never run.

Examples:
  $ strata check                                   the repository's own rules
  $ strata check --rules .dependency-cruiser.json --format sarif -o strata.sarif
  $ strata check --format json | jq '.counts'

Exit status: 0 without error-level violations, 1 with one, 2 when the rules
have mistakes (each named with its rule and field).`,
    )
    .action(async (options: CheckOptions) => {
      const ruleSet = readRuleSet(options);
      for (const note of ruleSet.notes) writeLine(process.stderr, `strata check: ${note}`);
      const answer = await ask<ViolationsAnswer>(options, {
        path: `/api/graph/violations?limit=${MAX_VIOLATIONS}`,
        body: { forbidden: 'rules' in ruleSet ? ruleSet.rules : [] },
        offline: (analysis) => analysis.violations(ruleSet, 0, MAX_VIOLATIONS),
      });
      // The server's answer names the rules' source "body": they are the ones read here.
      const result = { ...answer, source: ruleSet.source, notes: ruleSet.notes };
      const repository = path.resolve(options.repo);
      const text =
        options.format === 'json'
          ? `${JSON.stringify(result, null, 2)}\n`
          : options.format === 'sarif'
            ? `${JSON.stringify(sarifOf(result, repository), null, 2)}\n`
            : textOf(result);
      if (options.output) writeFileSync(options.output, text);
      else if (options.format === 'text') for (const line of text.trimEnd().split('\n')) writeLine(process.stdout, line);
      else process.stdout.write(text);
      if (result.counts.error > 0) process.exitCode = 1;
    });
}

/** The rules `strata check` checks: `--rules`, else the repository's. */
function readRuleSet(options: CheckOptions): RuleSet | { source: null; notes: string[] } {
  try {
    if (options.rules !== undefined) {
      const file = path.resolve(options.rules);
      if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new UsageError(`--rules: ${options.rules} is not a file`);
      if (/\.(c|m)?js$/.test(file)) throw new UsageError(`--rules: ${options.rules} is JavaScript, which Strata does not run: give the rules as JSON`);
      return ruleSetOfText(readFileSync(file, 'utf8'), options.rules);
    }
    const repository = path.resolve(options.repo);
    return repositoryRuleSet(loadConfig({ repository, ...(options.config !== undefined && { configFile: options.config }), env: {} }));
  } catch (error) {
    if (error instanceof RulesError) throw new RulesFileError(error.message);
    throw error;
  }
}

/** Shown as a person reads it: a path without its `file:` prefix. */
function shown(id: string | null): string {
  if (id === null) return '';
  if (id.startsWith('file:') || id.startsWith('dir:')) return id.slice(id.indexOf(':') + 1);
  if (id.startsWith('pkg:')) return `package ${id.slice(4)}`;
  return id;
}

/** What dependency-cruiser's `err` reporter prints, in Strata's words. */
function textOf(answer: ViolationsAnswer): string {
  const lines: string[] = [];
  for (const violation of answer.violations) {
    const where = violation.to === null ? `${shown(violation.from)} (orphan)` : `${shown(violation.from)} -> ${shown(violation.to)}`;
    lines.push(`  ${violation.severity.padEnd(5)} ${violation.rule}: ${where}`);
    if (violation.cycle) lines.push(`        cycle: ${[...violation.cycle, violation.cycle[0]!].map(shown).join(' -> ')}`);
  }
  if (lines.length > 0) lines.push('');
  const { error, warn, info } = answer.counts;
  const source = answer.source === null ? 'no rules' : `${answer.rules.length} rules from ${answer.source}`;
  const checked = `${answer.checked.imports.toLocaleString('en-US')} imports of ${answer.checked.files.toLocaleString('en-US')} files, ${source}`;
  lines.push(
    answer.total === 0
      ? `No violations in ${checked}.`
      : `${plural(answer.total, 'violation')} (${plural(error, 'error')}, ${plural(warn, 'warning')}, ${info} informational) in ${checked}.`,
  );
  if (answer.truncated) lines.push(`(the first ${answer.violations.length} listed)`);
  return `${lines.join('\n')}\n`;
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

const SARIF_LEVEL = { error: 'error', warn: 'warning', info: 'note' } as const;

/**
 * SARIF 2.1.0 for code-scanning dashboards (GitHub's among them): one run
 * of the tool "strata", a rule per rule, a result per violation at the
 * importing file and the line of the import when the file can be read here.
 * Typed by @types/sarif, the schema's object model.
 */
function sarifOf(answer: ViolationsAnswer, repository: string): Log {
  const lineOf = importLines(repository);
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'strata',
            version: HOST_VERSION,
            rules: answer.rules.map(
              (rule): ReportingDescriptor => ({
                id: rule.name,
                shortDescription: { text: rule.comment ?? rule.name },
                defaultConfiguration: { level: rule.severity === 'ignore' ? 'none' : SARIF_LEVEL[rule.severity] },
              }),
            ),
          },
        },
        originalUriBaseIds: { REPOROOT: { uri: `file://${repository.split(path.sep).map(encodeURIComponent).join('/')}/` } },
        results: answer.violations.map((violation): Result => {
          const file = violation.from.slice(violation.from.indexOf(':') + 1);
          const line = lineOf(file, violation);
          return {
            ruleId: violation.rule,
            ruleIndex: answer.rules.findIndex((rule) => rule.name === violation.rule),
            level: SARIF_LEVEL[violation.severity],
            message: { text: messageOf(violation) },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: file.split('/').map(encodeURIComponent).join('/'), uriBaseId: 'REPOROOT' },
                  region: { startLine: line },
                },
              },
            ],
          };
        }),
      },
    ],
  };
}

function messageOf(violation: RuleViolation): string {
  if (violation.to === null) return `${shown(violation.from)} is an orphan: it imports nothing and nothing imports it (rule ${violation.rule})`;
  const cycle = violation.cycle ? `; cycle: ${[...violation.cycle, violation.cycle[0]!].map(shown).join(' -> ')}` : '';
  return `${shown(violation.from)} imports ${shown(violation.to)}, which rule ${violation.rule} forbids${violation.comment ? ` (${violation.comment})` : ''}${cycle}`;
}

/**
 * The line of a violation's import in its file, found by its specifier in
 * quotes; 1 when the file cannot be read here (a remote server's) or the
 * specifier is not found.
 */
function importLines(repository: string): (file: string, violation: RuleViolation) => number {
  const texts = new Map<string, string[] | undefined>();
  return (file, violation) => {
    if (!violation.specifiers || violation.specifiers.length === 0) return 1;
    if (!texts.has(file)) texts.set(file, readOptional(repository, path.join(repository, file), MAX_SOURCE_BYTES)?.split('\n'));
    const lines = texts.get(file);
    if (!lines) return 1;
    for (const specifier of violation.specifiers) {
      const quoted = [`'${specifier}'`, `"${specifier}"`, `\`${specifier}\``];
      const at = lines.findIndex((line) => quoted.some((q) => line.includes(q)));
      if (at >= 0) return at + 1;
    }
    // Languages that name modules without quotes (Python, Java, Go's package paths are quoted): the first line naming it.
    for (const specifier of violation.specifiers) {
      const at = lines.findIndex((line) => line.includes(specifier));
      if (at >= 0) return at + 1;
    }
    return 1;
  };
}
