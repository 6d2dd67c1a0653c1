import { readFileSync } from 'node:fs';
import { ERROR_CODES } from '@strata/host';
import t from 'tap';

t.test('the error table in CONTRIBUTING.md is the one the host uses', async (t) => {
  const text = readFileSync(new URL('../../CONTRIBUTING.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Error codes'));
  const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (.+) \|$/gm)].map(([, code, status, meaning]) => [code, Number(status), meaning]);
  const table = Object.entries(ERROR_CODES).map(([code, { status, description }]) => [code, status, description]);
  t.same(rows, table, 'same codes, statuses and meanings, in the same order');
});

t.test('codes are listed in alphabetical order, each once', async (t) => {
  const codes = Object.keys(ERROR_CODES);
  t.same(codes, [...codes].sort());
  t.ok(codes.includes('NOT_FOUND'), 'the spec names NOT_FOUND');
});
