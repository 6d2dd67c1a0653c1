import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import t from 'tap';
import { fromDot } from 'ts-graphviz';
import { makeRepo } from '../helpers/fixture-repo.ts';
import { startTestServer, type TestServer } from '../helpers/strata-server.ts';
import { addNonUtf8File, BIDI_NAME, CLIQUE_SIZE, exportRepo, FORMULA_NAME, FORMULA_ROOT_FILE, LINE_BREAK_NAME, MARKUP_DIRECTORY } from './export-fixture.ts';

const FORMULA_FILE = `${MARKUP_DIRECTORY}/${FORMULA_NAME}`;

async function download(server: TestServer, query: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${server.url}/api/graph/export${query}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** The nodes and edges a JSON export holds. */
async function exportedJson(server: TestServer, query: string): Promise<{ level: string; nodes: any[]; edges: any[] }> {
  const { status, text } = await download(server, `?format=json${query}`);
  if (status !== 200) throw new Error(`${status}: ${text}`);
  return JSON.parse(text);
}

t.test('GET /api/graph/export', async (t) => {
  const repo = await makeRepo(t, exportRepo());
  await addNonUtf8File(repo);
  const server = await startTestServer(t, repo);
  const graph = (await server.api('/api/graph')).body.data;
  const files = graph.nodes.filter((node: any) => node.kind === 'file');
  const nonUtf8 = files.find((node: any) => node.path === 'src/"f\\377.ts"');
  t.ok(nonUtf8, 'the file whose name is not UTF-8 is in the graph');
  const fileIds = files.map((node: any) => node.id).sort();
  const allImports = CLIQUE_SIZE * (CLIQUE_SIZE - 1) + 2 + 1 + 5 + 1; // the clique, a<->b, b->react, five files -> a, the markup file -> b

  t.test('json: the nodes as GET /api/graph gives them, the imports with counts and kinds', async (t) => {
    const json = await exportedJson(server, '');
    t.equal(json.level, 'file');
    t.same(
      json.nodes
        .filter((node) => node.kind === 'file')
        .map((node) => node.id)
        .sort(),
      fileIds,
    );
    t.same(
      json.nodes.filter((node) => node.kind === 'package').map((node) => node.id),
      ['pkg:react'],
    );
    t.equal(json.edges.length, allImports);
    t.same(
      json.edges.find((edge) => edge.source === `file:${FORMULA_FILE}` && edge.target === 'file:src/b.ts'),
      { kind: 'imports', source: `file:${FORMULA_FILE}`, target: 'file:src/b.ts', count: 1, references: { 'type-only': 1 } },
    );
    t.same(
      json.nodes.find((node) => node.id === 'file:src/a.ts'),
      graph.nodes.find((node: any) => node.id === 'file:src/a.ts'),
    );

    const runtime = await exportedJson(server, '&exclude=type-only&include=file');
    t.equal(runtime.edges.length, allImports - 2, 'without type-only imports and packages');
    t.notOk(runtime.nodes.some((node) => node.kind === 'package'));

    const tree = await exportedJson(server, '&include=file,directory,symbol');
    const contains = tree.edges.filter((edge) => edge.kind === 'contains');
    t.ok(contains.some((edge) => edge.source === 'dir:src' && edge.target === 'file:src/a.ts'));
    t.ok(
      contains.some((edge) => edge.source === 'file:src/a.ts' && edge.target.startsWith('sym:src/a.ts#')),
      'symbols hang from their file',
    );
    t.ok(tree.nodes.some((node) => node.id === 'dir:.'));
  });

  t.test('level=directory: files collapsed into their directories, imports summed with counts', async (t) => {
    const json = await exportedJson(server, '&level=directory');
    t.equal(json.level, 'directory');
    t.same(json.nodes.map((node) => node.id).sort(), ['dir:.', 'dir:clique', 'dir:src', `dir:${MARKUP_DIRECTORY}`, 'pkg:react']);
    t.same(json.edges, [
      { kind: 'imports', source: `dir:${MARKUP_DIRECTORY}`, target: 'dir:src', count: 2, references: { static: 1, 'type-only': 1 } },
      { kind: 'imports', source: 'dir:.', target: 'dir:src', count: 1, references: { static: 1 } },
      { kind: 'imports', source: 'dir:src', target: 'pkg:react', count: 1, references: { static: 1 } },
    ]);
    const withoutPackages = await exportedJson(server, '&level=directory&include=directory');
    t.same(
      withoutPackages.edges.map((edge) => edge.target),
      ['dir:src', 'dir:src'],
    );
  });

  t.test('focus and depth: the node and what it reaches or is reached from', async (t) => {
    const dependencies = await exportedJson(server, `&focus=${encodeURIComponent('file:src/b.ts')}&direction=dependencies`);
    t.same(dependencies.nodes.map((node) => node.id).sort(), ['file:src/a.ts', 'file:src/b.ts', 'pkg:react']);
    t.equal(dependencies.edges.length, 3);
    const dependents = await exportedJson(server, `&focus=${encodeURIComponent('file:src/b.ts')}&direction=dependents&depth=2`);
    t.same(
      dependents.nodes.map((node) => node.id).sort(),
      [
        'file:src/a.ts',
        'file:src/b.ts',
        `file:${FORMULA_FILE}`,
        `file:${FORMULA_ROOT_FILE}`,
        `file:${LINE_BREAK_NAME}`,
        `file:${BIDI_NAME}`,
        nonUtf8.id,
      ].sort(),
    );
    const near = await exportedJson(server, `&focus=${encodeURIComponent('file:src/b.ts')}&direction=dependents`);
    t.same(near.nodes.map((node) => node.id).sort(), ['file:src/a.ts', 'file:src/b.ts', `file:${FORMULA_FILE}`].sort(), 'depth 1 by default');
    const directory = await exportedJson(server, `&focus=${encodeURIComponent('dir:clique')}&level=directory`);
    t.same(
      directory.nodes.map((node) => node.id),
      ['dir:clique'],
      'a directory stands for its files',
    );
  });

  t.test('graphml: parsed back by an XML parser, every name as it is', async (t) => {
    const { status, headers, text } = await download(server, '?format=graphml');
    t.equal(status, 200);
    t.equal(headers.get('content-type'), 'application/graphml+xml; charset=utf-8');
    t.equal(headers.get('content-disposition'), 'attachment; filename="strata-files.graphml"');
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      htmlEntities: true,
      isArray: (name, _path, _leaf, attribute) => !attribute && ['node', 'edge', 'data', 'key'].includes(name),
      parseTagValue: false,
    }).parse(text);
    const document = parsed.graphml;
    t.equal(document.xmlns, 'http://graphml.graphdrawing.org/xmlns');
    t.equal(document.graph.edgedefault, 'directed');
    const nodes = document.graph.node as Array<{ id: string; data: Array<{ key: string; '#text': string }> }>;
    const dataOf = (node: (typeof nodes)[number], key: string) => node.data.find((data) => data.key === key)?.['#text'];
    t.equal(nodes.length, files.length + 1);
    t.same(
      nodes
        .map((node) => dataOf(node, 'id'))
        .filter((id) => id!.startsWith('file:'))
        .sort(),
      fileIds,
    );
    const a = nodes.find((node) => dataOf(node, 'id') === 'file:src/a.ts')!;
    t.equal(dataOf(a, 'lines'), '2');
    t.equal(dataOf(a, 'language'), 'typescript');
    t.ok(
      nodes.some((node) => dataOf(node, 'name') === FORMULA_NAME && dataOf(node, 'path') === FORMULA_FILE),
      'quote, <, & and ] round-trip',
    );
    t.ok(
      nodes.some((node) => dataOf(node, 'path') === LINE_BREAK_NAME),
      'the line break round-trips',
    );
    t.ok(nodes.some((node) => dataOf(node, 'path') === BIDI_NAME));
    t.ok(
      nodes.some((node) => dataOf(node, 'id') === nonUtf8.id),
      'the name that is not UTF-8, as the graph quotes it',
    );
    const edges = document.graph.edge as Array<{ source: string; target: string; data: Array<{ key: string; '#text': string }> }>;
    t.equal(edges.length, allImports);
    const ids = new Set(nodes.map((node) => node.id));
    t.ok(
      edges.every((edge) => ids.has(edge.source) && ids.has(edge.target)),
      'every edge joins two nodes of the document',
    );

    const directories = await download(server, '?format=graphml&level=directory');
    const summed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      htmlEntities: true,
      isArray: (name, _path, _leaf, attribute) => !attribute && ['node', 'edge', 'data'].includes(name),
      parseTagValue: false,
    }).parse(directories.text);
    t.equal(summed.graphml.graph.node.length, 5);
    t.same(
      summed.graphml.graph.edge.map((edge: any) => edge.data.find((data: any) => data.key === 'count')['#text']),
      ['2', '1', '1'],
    );
  });

  t.test('dot: parsed back by a DOT parser, directories as clusters', async (t) => {
    const { status, headers, text } = await download(server, '?format=dot');
    t.equal(status, 200);
    t.equal(headers.get('content-type'), 'text/vnd.graphviz; charset=utf-8');
    const model = fromDot(text);
    t.equal(model.directed, true);
    const clusters = model.subgraphs;
    t.same(clusters.map((cluster) => cluster.get('label')).sort(), ['.', 'clique', 'src', MARKUP_DIRECTORY].sort());
    const nodes = [...model.nodes, ...clusters.flatMap((cluster) => cluster.nodes)];
    t.equal(nodes.length, files.length + 1);
    const tooltips = nodes.map((node) => String(node.attributes.get('tooltip')));
    // A DOT parser reads `\"` as a quote and keeps the other escapes (`\\`, `\n`) for the label's renderer.
    const dotEscaped = (id: string) => id.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
    t.same(tooltips.filter((tip) => tip.startsWith('file:')).sort(), fileIds.map(dotEscaped).sort());
    t.ok(tooltips.includes(`file:${dotEscaped(FORMULA_FILE)}`));
    t.equal(model.edges.length, allImports);

    const directories = fromDot((await download(server, '?format=dot&level=directory')).text);
    t.equal(directories.subgraphs.length, 0, 'directories are nodes at directory level');
    t.equal(directories.nodes.length, 5);
    t.same(
      directories.edges.map((edge) => edge.attributes.get('label')),
      ['2', undefined, undefined],
    );
  });

  t.test('mermaid: refused above its edge limit, labels quoted and sanitized', async (t) => {
    const whole = await download(server, '?format=mermaid');
    t.equal(whole.status, 400);
    const error = JSON.parse(whole.text).error;
    t.equal(error.code, 'INVALID_PARAMETER');
    t.match(error.message, new RegExp(`^query\\.format: mermaid draws at most 500 edges .* this export has ${allImports}: export level=directory, or focus=`));

    const { status, headers, text } = await download(server, `?format=mermaid&focus=${encodeURIComponent('file:src/a.ts')}`);
    t.equal(status, 200, text);
    t.equal(headers.get('content-type'), 'text/vnd.mermaid; charset=utf-8');
    const lines = text.trimEnd().split('\n');
    t.equal(lines[0], 'flowchart LR');
    const labels = new Map<string, string>();
    let edges = 0;
    for (const line of lines.slice(1)) {
      const node = /^ {2}(n\d+)\["([^"\n[\]<>&]*)"\]$/.exec(line);
      const edge = /^ {2}(n\d+) -->(?:\|\d+\|)? (n\d+)$/.exec(line);
      t.ok(node ?? edge, `a node or an edge: ${JSON.stringify(line)}`);
      if (node)
        labels.set(
          node[1]!,
          node[2]!.replace(/#(\d+);/g, (_, code) => String.fromCodePoint(Number(code))),
        );
      if (edge) {
        edges++;
        t.ok(labels.has(edge[1]!) && labels.has(edge[2]!), 'an edge joins declared nodes');
      }
    }
    t.same(
      [...labels.values()].sort(),
      ['src/a.ts', 'src/b.ts', FORMULA_FILE, FORMULA_ROOT_FILE, LINE_BREAK_NAME.replace('\n', '\ufffd'), BIDI_NAME, nonUtf8.path].sort(),
    );
    t.equal(edges, 8);
    t.equal((await download(server, '?format=mermaid&level=directory')).status, 200);
  });

  t.test('cc.json: files in folders with their lines, imports as edges between paths', async (t) => {
    const { status, headers, text } = await download(server, '?format=cc.json');
    t.equal(status, 200);
    t.equal(headers.get('content-disposition'), 'attachment; filename="strata-files.cc.json"');
    const cc = JSON.parse(text);
    t.equal(cc.apiVersion, '1.3');
    t.equal(typeof cc.projectName, 'string');
    t.equal(cc.nodes.length, 1);
    t.equal(cc.nodes[0].name, 'root');
    const leaves: string[] = [];
    const walk = (node: any, at: string): void => {
      if (node.type === 'File') leaves.push(`${at}/${node.name}`);
      for (const child of node.children ?? []) walk(child, `${at}/${node.name}`);
    };
    walk(cc.nodes[0], '');
    t.same(leaves.sort(), files.map((node: any) => `/root/${node.path}`).sort());
    const src = cc.nodes[0].children.find((child: any) => child.name === 'src');
    t.same(
      src.children.find((child: any) => child.name === 'a.ts'),
      { name: 'a.ts', type: 'File', attributes: { lines: 2, loc: 2, bytes: 54 } },
    );
    t.equal(cc.edges.length, allImports - 1, 'the import of a package is no edge between files');
    t.same(
      cc.edges.find((edge: any) => edge.fromNodeName === `/root/${FORMULA_FILE}` && edge.toNodeName === '/root/src/a.ts'),
      {
        fromNodeName: `/root/${FORMULA_FILE}`,
        toNodeName: '/root/src/a.ts',
        attributes: { imports: 1 },
      },
    );
    t.same(cc.attributeTypes, { nodes: { lines: 'absolute', loc: 'absolute', bytes: 'absolute' }, edges: { imports: 'absolute' } });
  });

  t.test('bad parameters: 400 naming the parameter, an unknown node 404', async (t) => {
    const cases: Array<[string, number, string, RegExp]> = [
      ['', 400, 'INVALID_PARAMETER', /query.*format/],
      ['?format=xml', 400, 'INVALID_PARAMETER', /query\.format/],
      ['?format=dot&level=module', 400, 'INVALID_PARAMETER', /query\.level/],
      ['?format=dot&include=files', 400, 'INVALID_PARAMETER', /^query\.include: "files" is not a node kind/],
      ['?format=dot&include=package', 400, 'INVALID_PARAMETER', /^query\.include: must hold "file"/],
      ['?format=dot&level=directory&include=directory,symbol', 400, 'INVALID_PARAMETER', /^query\.include: level=directory collapses files/],
      ['?format=dot&depth=2', 400, 'INVALID_PARAMETER', /^query\.depth: .*give focus/],
      ['?format=dot&focus=file:src/a.ts&depth=0', 400, 'INVALID_PARAMETER', /^query\.depth: must be at least 1/],
      ['?format=dot&exclude=types', 400, 'INVALID_PARAMETER', /^query\.exclude: "types" is not a reference kind/],
      ['?format=cc.json&level=directory', 400, 'INVALID_PARAMETER', /^query\.level: cc\.json holds files/],
      ['?format=dot&focus=file:src/nope.ts', 404, 'NOT_FOUND', /^query\.focus: node "file:src\/nope\.ts" does not exist/],
    ];
    for (const [query, status, code, message] of cases) {
      const answer = await download(server, query);
      t.equal(answer.status, status, query);
      const error = JSON.parse(answer.text).error;
      t.equal(error.code, code, query);
      t.match(error.message, message, query);
    }
  });

  t.test('GET /api/graph/export/{list}: CSV by RFC 4180, formulas neutralized', async (t) => {
    const cycles = await fetch(`${server.url}/api/graph/export/cycles`);
    t.equal(cycles.status, 200);
    t.equal(cycles.headers.get('content-type'), 'text/csv; charset=utf-8; header=present');
    t.equal(cycles.headers.get('content-disposition'), 'attachment; filename="strata-cycles.csv"');
    const cyclesText = await cycles.text();
    t.match(cyclesText, /^component,size,file,shortest_cycle\r\n/);
    const cycleRows = parseCsv(cyclesText, { columns: true }) as Array<Record<string, string>>;
    t.equal(cycleRows.length, CLIQUE_SIZE + 2);
    t.same(
      cycleRows.filter((row: any) => row.component === '2').map((row: any) => row.file),
      ['src/a.ts', 'src/b.ts'],
    );
    t.equal(cycleRows.find((row) => row.file === 'src/a.ts')?.shortest_cycle, 'src/a.ts -> src/b.ts -> src/a.ts');

    const dependents = await (await fetch(`${server.url}/api/graph/export/dependents?node=${encodeURIComponent('file:src/a.ts')}&depth=1`)).text();
    const rows = parseCsv(dependents, { columns: true }) as Array<Record<string, string>>;
    t.same(
      rows.map((row: any) => row.node).sort(),
      [FORMULA_FILE, `'${FORMULA_ROOT_FILE}`, 'src/b.ts', LINE_BREAK_NAME, BIDI_NAME, nonUtf8.path].sort(),
      'the cell that would be a formula starts with a quote',
    );
    t.match(dependents, `\r\n'=cmd|' calc'!A0.js,1,src/a.ts,`);
    t.ok(rows.every((row: any) => row.depth === '1' && row.via === 'src/a.ts'));
    t.match(dependents, `"src/line\nbreak.ts"`, 'a line break in a name is quoted');
    t.match(dependents, `"src/we""ird<&]/=cmd|' calc'!A0.ts"`, 'a quote in a name is doubled inside quotes');

    const violations = await (await fetch(`${server.url}/api/graph/export/violations`)).text();
    t.same(parseCsv(violations), [
      ['rule', 'severity', 'from', 'to'],
      ["'=no-markup-imports", 'error', FORMULA_FILE, 'src/a.ts'],
    ]);

    const formula = await (await fetch(`${server.url}/api/graph/export/dependencies?node=${encodeURIComponent(`dir:${MARKUP_DIRECTORY}`)}`)).text();
    t.match(formula, /\r\nsrc\/a\.ts,1,/);

    const missing = await server.api('/api/graph/export/dependents');
    t.equal(missing.status, 400);
    t.match(missing.body.error.message, /^query\.node: is required for dependents/);
    const unknown = await server.api('/api/graph/export/hotspots');
    t.equal(unknown.status, 400);
    t.equal(unknown.body.error.code, 'INVALID_PARAMETER');
    t.equal((await server.api('/api/graph/export/dependents?node=file:nope.ts')).status, 404);
  });
});
