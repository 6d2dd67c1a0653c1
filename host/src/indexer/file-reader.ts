import { open } from 'node:fs/promises';
import path from 'node:path';
import { isBinaryFile } from 'isbinaryfile';
import type { LanguageDetector } from './language-detector.js';
import { analyzeSource, countLines, isParsedSource, type ImportReference, type SymbolFacts } from './source-file-analyzer.js';

/** What reading one file tells: everything the graph needs from it. */
export interface FileFacts {
  path: string;
  language?: string;
  bytes?: number;
  lines?: number;
  loc?: number;
  binary?: boolean;
  error?: string;
  imports: ImportReference[];
  symbols: SymbolFacts[];
}

/**
 * Reads and analyzes one repository file. Never throws: what goes wrong is
 * recorded in `error`, and the file is still a node.
 */
export async function readFileFacts(root: string, file: string, maxFileBytes: number, languages: LanguageDetector): Promise<FileFacts> {
  const name = file.slice(file.lastIndexOf('/') + 1);
  const facts: FileFacts = { path: file, imports: [], symbols: [] };
  const language = languages.detect(name);
  if (language) facts.language = language;
  let handle;
  try {
    handle = await open(path.join(root, file), 'r');
    const { size } = await handle.stat();
    facts.bytes = size;
    if (size > maxFileBytes) {
      facts.error = `not read: ${size} bytes is over the limit of ${maxFileBytes} (index.maxFileBytes)`;
      return facts;
    }
    const buffer = await handle.readFile();
    if (buffer.length > 0 && (await isBinaryFile(buffer))) {
      facts.binary = true;
      delete facts.language;
      return facts;
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(buffer);
    } catch {
      text = buffer.toString('latin1');
      facts.error = 'not valid UTF-8; read as Latin-1';
    }
    if (!isParsedSource(name)) return Object.assign(facts, countLines(text, []));
    const analysis = analyzeSource(name, text);
    facts.lines = analysis.lines;
    facts.loc = analysis.loc;
    facts.imports = analysis.imports;
    facts.symbols = analysis.symbols;
    if (analysis.error) facts.error = analysis.error;
    return facts;
  } catch (error) {
    facts.error = `unreadable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`;
    return facts;
  } finally {
    await handle?.close();
  }
}
