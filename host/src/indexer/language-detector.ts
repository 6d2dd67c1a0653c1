import { plainName } from '../graph/file-names.js';
import { LANGUAGE_BY_EXTENSION, LANGUAGE_BY_FILENAME } from './language-table.js';

/**
 * Names a file's language from GitHub Linguist's data (extensions and exact
 * file names, generated into `language-table.ts`; see
 * `host/scripts/generate-language-table.ts` for how shared extensions are
 * settled). Names are lower case with dashes: `typescript`, `tsx`,
 * `javascript`, `json`, `markdown`, `c++`.
 */
export class LanguageDetector {
  /** The language of a file named `filename`, or undefined when Linguist does not know it. */
  detect(component: string): string | undefined {
    const filename = plainName(component);
    if (Object.hasOwn(LANGUAGE_BY_FILENAME, filename)) return LANGUAGE_BY_FILENAME[filename];
    const lower = filename.toLowerCase();
    // Longest extension first, so that `.d.ts` or `.spec.ts`-like compounds Linguist knows win.
    for (let dot = lower.indexOf('.', 1); dot !== -1; dot = lower.indexOf('.', dot + 1)) {
      const extension = lower.slice(dot);
      if (Object.hasOwn(LANGUAGE_BY_EXTENSION, extension)) return LANGUAGE_BY_EXTENSION[extension];
    }
    return undefined;
  }
}
