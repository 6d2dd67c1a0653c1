import * as linguist from 'linguist-languages';

/**
 * Linguist settles shared extensions with heuristics on file content; Strata
 * settles them by name alone, preferring these (Linguist's popular languages
 * and the common data and prose formats), so that `.rs` is Rust, `.md` is
 * Markdown and `.yaml` is YAML.
 */
const PREFERRED = new Set([
  'C', 'C#', 'C++', 'CoffeeScript', 'CSS', 'Dart', 'Elixir', 'Go', 'Groovy', 'HTML', 'Java', 'JavaScript', 'Kotlin',
  'Objective-C', 'Perl', 'PHP', 'PowerShell', 'Python', 'Ruby', 'Rust', 'Scala', 'Shell', 'Swift', 'TypeScript', 'TSX',
  'JSON', 'YAML', 'XML', 'Markdown', 'Text', 'SQL', 'R', 'OCaml', 'F#', 'Fortran', 'Verilog', 'Assembly', 'Scheme', 'Lean 4',
]);

interface LinguistLanguage {
  name: string;
  type: string;
  extensions?: string[];
  filenames?: string[];
}

/**
 * Names a file's language from GitHub Linguist's data (extensions and exact
 * file names). Names are lower case with dashes: `typescript`, `tsx`,
 * `javascript`, `json`, `markdown`, `c++`.
 */
export class LanguageDetector {
  private readonly byExtension = new Map<string, string>();
  private readonly byFilename = new Map<string, string>();

  constructor() {
    const languages = Object.values(linguist as unknown as Record<string, LinguistLanguage>).filter(
      (language): language is LinguistLanguage => typeof language === 'object' && language !== null && typeof language.name === 'string',
    );
    // An extension shared by several languages goes to a preferred language,
    // then to the one whose primary extension it is, then to a programming
    // language, then to the first in Linguist's (alphabetical) order.
    const rank = (language: LinguistLanguage, extension: string): number =>
      (PREFERRED.has(language.name) ? 0 : 4) + (language.extensions?.[0] === extension ? 0 : 2) + (language.type === 'programming' ? 0 : 1);
    const best = new Map<string, { language: LinguistLanguage; rank: number }>();
    for (const language of languages) {
      for (const extension of language.extensions ?? []) {
        const key = extension.toLowerCase();
        const candidate = { language, rank: rank(language, extension) };
        const current = best.get(key);
        if (!current || candidate.rank < current.rank) best.set(key, candidate);
      }
      for (const filename of language.filenames ?? []) {
        if (!this.byFilename.has(filename)) this.byFilename.set(filename, normalize(language.name));
      }
    }
    for (const [extension, { language }] of best) this.byExtension.set(extension, normalize(language.name));
  }

  /** The language of a file named `filename`, or undefined when Linguist does not know it. */
  detect(filename: string): string | undefined {
    const exact = this.byFilename.get(filename);
    if (exact) return exact;
    const lower = filename.toLowerCase();
    // Longest extension first, so that `.d.ts` or `.spec.ts`-like compounds Linguist knows win.
    for (let dot = lower.indexOf('.', 1); dot !== -1; dot = lower.indexOf('.', dot + 1)) {
      const language = this.byExtension.get(lower.slice(dot));
      if (language) return language;
    }
    return undefined;
  }
}

function normalize(name: string): string {
  return name.toLowerCase().replace(/\s+/g, '-');
}
