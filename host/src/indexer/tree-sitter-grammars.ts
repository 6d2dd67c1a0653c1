import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Language, Parser } from 'web-tree-sitter';

/**
 * Where a tree-sitter grammar comes from: the npm package of the grammar and
 * the prebuilt WebAssembly file it ships (`tree-sitter-python` ships
 * `tree-sitter-python.wasm`). The official grammars of the other languages
 * (tree-sitter-go, -java, -rust, -c-sharp, -ruby, -php, ...) ship theirs the
 * same way.
 */
export interface GrammarSource {
  packageName: string;
  wasmFile: string;
}

/** A grammar loaded on this thread, and what parses with it. */
export interface TreeSitterGrammar {
  language: Language;
  newParser(): Parser;
}

/** web-tree-sitter's module and its WebAssembly runtime, loaded once per thread (only by threads that parse such files). */
let runtime: Promise<typeof import('web-tree-sitter')> | undefined;

/**
 * Loads a grammar on this thread: web-tree-sitter's runtime first (once),
 * then the grammar's WebAssembly module, checked against the ABI versions
 * the runtime reads. Rejects with a message naming the grammar.
 */
export async function loadGrammar(source: GrammarSource): Promise<TreeSitterGrammar> {
  runtime ??= import('web-tree-sitter').then(async (module) => {
    await module.Parser.init();
    return module;
  });
  const { Language, Parser, LANGUAGE_VERSION, MIN_COMPATIBLE_VERSION } = await runtime;
  let language: Language;
  try {
    const file = createRequire(import.meta.url).resolve(`${source.packageName}/${source.wasmFile}`);
    language = await Language.load(readFileSync(file));
  } catch (error) {
    throw new Error(`the ${source.packageName} grammar did not load: ${(error as Error).message}`);
  }
  const abi = language.abiVersion;
  if (abi < MIN_COMPATIBLE_VERSION || abi > LANGUAGE_VERSION) {
    throw new Error(`the ${source.packageName} grammar has ABI version ${abi}; web-tree-sitter reads ${MIN_COMPATIBLE_VERSION} to ${LANGUAGE_VERSION}`);
  }
  return {
    language,
    newParser: () => {
      const parser = new Parser();
      parser.setLanguage(language);
      return parser;
    },
  };
}
