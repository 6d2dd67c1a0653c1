/**
 * The reference figures: ESLint's `complexity` rule and eslint-plugin-sonarjs's
 * `cognitive-complexity` rule, run by ESLint's Linter (flat config, threshold
 * 0 so that every unit is reported), typescript-eslint's parser for
 * TypeScript and espree (with JSX) for JavaScript.
 *
 * To know which function each report is about, each rule also runs a second
 * time wrapped: the wrapper is the rule's own `create`, given a context whose
 * `report` records the function node it is called for (the complexity rule
 * passes it; for SonarJS it is the node of the `:function:exit` listener the
 * report comes from). The plain rules run in the same pass, and their
 * messages must equal the wrapped rules' records, figure for figure.
 *
 * SonarJS's file figure (what it hands to SonarQube) comes from the rule's
 * internal metrics sink (`settings.sonarInternal.metricsSink`).
 *
 * Lines of code are counted independently from ESLint's own view of the
 * file: its lines and its comment tokens.
 */
import { Linter, type Rule } from 'eslint';
import { builtinRules } from 'eslint/use-at-your-own-risk';
import sonarjs from 'eslint-plugin-sonarjs';
import tseslint from 'typescript-eslint';

export type UnitKind = 'function' | 'class-field-initializer' | 'class-static-block';

/** One unit ESLint's complexity rule evaluated. Columns are 1-based. */
export interface OracleUnit {
  kind: UnitKind;
  /** ESLint's description: `Function 'f'`, `Method 'm'`, `Arrow function`, `Class field initializer`... */
  description: string;
  /** Where the body starts (the value of an initializer, `static` of a static block). */
  anchorLine: number;
  anchorColumn: number;
  startLine: number;
  endLine: number;
  cyclomatic: number;
  /** SonarJS's figure; 0 when it did not report the function (it reports above the threshold 0 only); undefined for non-functions. */
  cognitive: number | undefined;
  /** Code lines in startLine..endLine, counted from ESLint's lines and comments. */
  loc: number;
}

export interface OracleFile {
  units: OracleUnit[];
  /** SonarJS's file figure. */
  fileCognitive: number;
  loc: number;
  /** Code lines among lines `first..last`. */
  codeLines(first: number, last: number): number;
  /** Messages of the plain rules, for the cross-check. */
  plain: { cyclomatic: number[]; cognitive: number[] };
}

type EsNode = Rule.Node & {
  type: string;
  parent?: EsNode;
  body?: EsNode;
  value?: EsNode;
  range: [number, number];
  loc: { start: { line: number; column: number }; end: { line: number; column: number } };
};

interface Capture {
  cyclomatic: Array<{ node: EsNode; name: string; complexity: number }>;
  cognitive: Map<EsNode, number>;
  sink: { cognitiveComplexity?: number };
}

let capture: Capture;

/** A context whose `report` and `settings` are ours; everything else is the real one's. */
function contextWith(context: Rule.RuleContext, report: (descriptor: any) => void, settings?: object): Rule.RuleContext {
  // The real context is frozen: the proxy stands on an empty target and reads through to it.
  return new Proxy({} as Rule.RuleContext, {
    get(_target, property) {
      if (property === 'report') return report;
      if (property === 'settings' && settings) return settings;
      const value = Reflect.get(context, property, context);
      return typeof value === 'function' ? value.bind(context) : value;
    },
  });
}

const complexityRule = builtinRules.get('complexity')!;
const cognitiveRule = sonarjs.rules['cognitive-complexity'] as unknown as Rule.RuleModule;

const recorder = {
  meta: { name: 'oracle' },
  rules: {
    complexity: {
      meta: complexityRule.meta,
      create(context: Rule.RuleContext) {
        return complexityRule.create(
          contextWith(context, (descriptor) => {
            capture.cyclomatic.push({ node: descriptor.node, name: descriptor.data.name, complexity: Number(descriptor.data.complexity) });
          }),
        );
      },
    },
    'cognitive-complexity': {
      meta: cognitiveRule.meta,
      create(context: Rule.RuleContext) {
        let current: EsNode | undefined;
        const settings = { sonarInternal: { metricsSink: capture.sink } };
        const listeners = cognitiveRule.create(
          contextWith(
            context,
            (descriptor) => {
              if (!current) throw new Error('a cognitive complexity report outside a function exit');
              capture.cognitive.set(current, Number(descriptor.data.complexityAmount));
            },
            settings,
          ),
        ) as Record<string, (node: EsNode) => void>;
        const exit = listeners[':function:exit']!;
        return {
          ...listeners,
          ':function:exit'(node: EsNode) {
            current = node;
            exit(node);
            current = undefined;
          },
        };
      },
    },
  } as Record<string, Rule.RuleModule>,
};

const RULES = {
  complexity: ['error', 0],
  'sonarjs/cognitive-complexity': ['error', 0],
  'oracle/complexity': ['error', 0],
  'oracle/cognitive-complexity': ['error', 0],
} as const;

const CONFIG: Linter.Config[] = [
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'],
    languageOptions: { parser: tseslint.parser as Linter.Parser, sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
  },
  {
    files: ['**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs'],
    languageOptions: { sourceType: 'module', parserOptions: { ecmaFeatures: { jsx: true } } },
  },
  {
    files: ['**/*'],
    plugins: { sonarjs: sonarjs as any, oracle: recorder as any },
    rules: RULES as any,
  },
];

const linter = new Linter({ configType: 'flat' });

/** What the complexity rule's report says a unit is. */
function kindOf(name: string): UnitKind {
  if (name === 'Class field initializer') return 'class-field-initializer';
  if (name === 'Class static block') return 'class-static-block';
  return 'function';
}

/** The span the plugin counts lines over: a method's whole definition, else the function (or value, or block) itself. */
function spanOf(node: EsNode, kind: UnitKind): EsNode {
  const parent = node.parent as unknown as { type: string; value?: unknown; method?: boolean; kind?: string } | undefined;
  if (kind !== 'function' || !parent || parent.value !== node) return node;
  if (parent.type === 'MethodDefinition' || parent.type === 'TSAbstractMethodDefinition') return parent as EsNode;
  if (parent.type === 'Property' && (parent.method || parent.kind === 'get' || parent.kind === 'set')) return parent as EsNode;
  return node;
}

/** Runs both rules on one file. */
export function oracle(text: string, filename: string): OracleFile {
  capture = { cyclomatic: [], cognitive: new Map(), sink: {} };
  const messages = linter.verify(text, CONFIG, { filename });
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(`${filename}: ESLint could not parse: ${fatal.message}`);
  const sourceCode = linter.getSourceCode();
  const plain = {
    cyclomatic: messages.filter((message) => message.ruleId === 'complexity').map((message) => Number(/complexity of (\d+)/.exec(message.message)![1])),
    cognitive: messages
      .filter((message) => message.ruleId === 'sonarjs/cognitive-complexity')
      .map((message) => Number(/from (\d+) to/.exec(message.message)![1])),
  };

  // Code lines from ESLint's lines and comments: blank out comments, then look for anything left.
  const chars = sourceCode.text.split('');
  for (const comment of sourceCode.getAllComments()) {
    for (let i = comment.range![0]; i < comment.range![1]; i++) if (!/[\r\n\u2028\u2029]/.test(chars[i]!)) chars[i] = ' ';
  }
  const lines = chars.join('').split(/\r\n|[\r\n\u2028\u2029]/);
  const prefix = [0];
  for (const [index, line] of lines.entries()) prefix.push(prefix[index]! + (/\S/.test(line) ? 1 : 0));
  const codeLines = (first: number, last: number): number => prefix[last]! - prefix[first - 1]!;

  const units = capture.cyclomatic.map(({ node, name, complexity }): OracleUnit => {
    const kind = kindOf(name);
    const anchor = kind === 'function' ? node.body! : node;
    const span = spanOf(node, kind);
    return {
      kind,
      description: name,
      anchorLine: anchor.loc.start.line,
      anchorColumn: anchor.loc.start.column + 1,
      startLine: span.loc.start.line,
      endLine: span.loc.end.line,
      cyclomatic: complexity,
      cognitive: kind === 'function' ? (capture.cognitive.get(node) ?? 0) : undefined,
      loc: codeLines(span.loc.start.line, span.loc.end.line),
    };
  });
  const reported = new Set(capture.cyclomatic.map(({ node }) => node));
  for (const node of capture.cognitive.keys()) if (!reported.has(node)) throw new Error(`${filename}: SonarJS reported a function the complexity rule did not`);
  if (capture.sink.cognitiveComplexity === undefined) throw new Error(`${filename}: SonarJS's metrics sink was not filled`);
  return { units, fileCognitive: capture.sink.cognitiveComplexity, loc: codeLines(1, lines.length), codeLines, plain };
}
