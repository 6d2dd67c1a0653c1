import { readFileSync } from 'node:fs';
import { indexRepository } from '@strata/host';
import t from 'tap';
import { LANGUAGE_TABLE_FILE, languageTableModule } from '../../host/scripts/generate-language-table.ts';
import { makeRepo } from '../helpers/fixture-repo.ts';

t.test("the committed language table is what Linguist's installed data gives", async (t) => {
  t.equal(
    readFileSync(LANGUAGE_TABLE_FILE, 'utf8'),
    languageTableModule(),
    'run `npm run generate:languages -w @strata/host` after updating linguist-languages',
  );
});

t.test('files get their language from the table: by exact name, by longest extension, shared extensions settled by preference', async (t) => {
  const repo = await makeRepo(t, {
    Makefile: 'all:\n',
    Dockerfile: 'FROM node\n',
    'src/a.ts': 'export {};\n',
    'src/b.d.ts': 'export {};\n',
    'src/c.tsx': 'export {};\n',
    'README.md': '# x\n',
    'lib.rs': 'fn main() {}\n',
    'conf.yaml': 'a: 1\n',
    'data.unknownext': 'x\n',
    toString: 'x\n',
  });
  const graph = await indexRepository({ repository: repo, env: {} });
  const language = (path: string): unknown => graph.nodes.find((node) => node.kind === 'file' && node.path === path)?.language;
  t.equal(language('Makefile'), 'makefile');
  t.equal(language('Dockerfile'), 'dockerfile');
  t.equal(language('src/a.ts'), 'typescript');
  t.equal(language('src/b.d.ts'), 'typescript');
  t.equal(language('src/c.tsx'), 'tsx');
  t.equal(language('README.md'), 'markdown', '.md is shared with GCC Machine Description; Markdown is preferred');
  t.equal(language('lib.rs'), 'rust', '.rs is shared with RenderScript and XML; Rust is preferred');
  t.equal(language('conf.yaml'), 'yaml');
  t.equal(language('data.unknownext'), undefined, 'an unknown extension has no language');
  t.equal(language('toString'), undefined, 'names of Object.prototype members are not languages');
});
