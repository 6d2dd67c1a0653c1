import { existsSync } from 'node:fs';
import path from 'node:path';
import type { StrataConfig } from '../config/strata-config.js';
import { readOptional } from '../indexer/read-optional.js';
import { parseRuleSet, type RuleSet, RulesError } from './dependency-rules.js';

/** dependency-cruiser's JSON configuration, read for its `forbidden` rules. */
export const DEPENDENCY_CRUISER_JSON = '.dependency-cruiser.json';
/** dependency-cruiser's configurations in JavaScript, which Strata never runs. */
const DEPENDENCY_CRUISER_SCRIPTS = ['.dependency-cruiser.js', '.dependency-cruiser.cjs', '.dependency-cruiser.mjs'];
/** The largest rules file read. */
const MAX_RULES_FILE_BYTES = 1024 * 1024;

/**
 * The rules of a repository: `rules` in its strata.config.json, else the
 * `forbidden` rules of its `.dependency-cruiser.json`; undefined when it has
 * neither (a note then says why, when it has a configuration in JavaScript).
 * Read each time (a rules file edited while the server runs is the next
 * answer's), as data, through `readOptional` (a link out of the repository
 * is not followed).
 */
export function repositoryRuleSet(config: StrataConfig): RuleSet | { source: null; notes: string[] } {
  if (config.rules) return parseRuleSet(config.rules.value, `${config.rules.source} (rules)`);
  const root = config.repositoryRoot;
  const text = readOptional(root, path.join(root, DEPENDENCY_CRUISER_JSON), MAX_RULES_FILE_BYTES);
  if (text !== undefined) {
    if (Buffer.byteLength(text) > MAX_RULES_FILE_BYTES)
      throw new RulesError(DEPENDENCY_CRUISER_JSON, [`larger than ${MAX_RULES_FILE_BYTES / 1024 / 1024} MiB`]);
    return parseRuleSet(parseJson(text, DEPENDENCY_CRUISER_JSON), DEPENDENCY_CRUISER_JSON);
  }
  const script = DEPENDENCY_CRUISER_SCRIPTS.find((name) => existsSync(path.join(root, name)));
  return {
    source: null,
    notes: script
      ? [
          `${script} is JavaScript, which Strata does not run: put its "forbidden" rules in ${DEPENDENCY_CRUISER_JSON}, in strata.config.json under "rules", or in a file given with --rules`,
        ]
      : [
          `no rules: put them in strata.config.json under "rules" ({"forbidden": [...]}, dependency-cruiser's shape), in ${DEPENDENCY_CRUISER_JSON}, or in a file given with --rules`,
        ],
  };
}

/** The rules of a file a user names (`strata check --rules`): JSON, either shape. */
export function ruleSetOfText(text: string, source: string): RuleSet {
  const parsed = parseJson(text, source);
  // strata.config.json's shape holds them under "rules"; dependency-cruiser's at the top.
  const rules = typeof parsed === 'object' && parsed !== null && 'rules' in parsed && !('forbidden' in parsed) ? (parsed as { rules: unknown }).rules : parsed;
  return parseRuleSet(rules, source);
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new RulesError(source, [`not valid JSON (${(error as Error).message}); rules are read as JSON only, never run`]);
  }
}
