import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import t from 'tap';
import { makeRepo, SAMPLE_REPO } from '../helpers/fixture-repo.ts';
import { nodePath, postJson, request, startTestServer } from '../helpers/strata-server.ts';

t.test('GET /api/openapi.json is a valid OpenAPI 3.1 document of every route', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const { status, body: document } = await server.api('/api/openapi.json');
  t.equal(status, 200);
  t.equal(document.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(document);
  t.same(result.errors ?? [], [], 'the document conforms to the OpenAPI 3.1 schema');
  t.equal(result.valid, true);

  const operations = Object.entries(document.paths as Record<string, Record<string, { operationId: string }>>).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
  );
  t.same(operations.sort(), [
    'DELETE /api/graph/layout',
    'DELETE /api/overlays/{id}/apply',
    'GET /api/events',
    'GET /api/graph',
    'GET /api/graph/changes',
    'GET /api/graph/cycles',
    'GET /api/graph/edges',
    'GET /api/graph/export',
    'GET /api/graph/export/{list}',
    'GET /api/graph/layout/compute/available',
    'GET /api/graph/layout/compute/status',
    'GET /api/graph/map',
    'GET /api/graph/metrics',
    'GET /api/graph/nodes/{id}',
    'GET /api/graph/nodes/{id}/dependencies',
    'GET /api/graph/nodes/{id}/dependents',
    'GET /api/graph/nodes/{id}/metrics',
    'GET /api/graph/path',
    'GET /api/graph/violations',
    'GET /api/graph/violations/edges',
    'GET /api/openapi.json',
    'GET /api/overlays',
    'GET /api/overlays/{id}/edges',
    'GET /api/overlays/{id}/logs',
    'GET /api/overlays/{id}/status',
    'GET /api/overlays/{id}/styles',
    'POST /api/graph/layout',
    'POST /api/graph/layout/compute',
    'POST /api/graph/layout/compute/cancel',
    'POST /api/graph/violations',
    'POST /api/overlays/{id}/apply',
  ]);
  t.match(document.paths['/api/overlays/{id}/apply'].post.responses['409'].description, /OVERLAY_BUSY/);
  t.match(document.paths['/api/graph/nodes/{id}'].get.responses['404'].description, /NOT_FOUND/);
  t.match(document.paths['/api/graph/layout'].post.responses['413'].description, /PAYLOAD_TOO_LARGE/);
  t.equal(document.paths['/api/graph/layout'].post.requestBody.required, true);
  t.equal(document.security, undefined, 'without authToken, no operation needs credentials (spec 5.1)');
  t.equal(document.components.securitySchemes, undefined);
  t.equal(document.paths['/api/graph'].get.responses['401'], undefined);
  const legend = JSON.stringify(document.paths['/api/overlays'].get.responses['200']);
  t.ok(legend.includes(JSON.stringify('^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$')), 'legend colors are #rgb or #rrggbb, as the SDK checks them');
});

t.test('the document names every language the indexer parses, and its import rule', async (t) => {
  // One file per parsed language, each declaring a function: a language whose files get symbols is parsed.
  const repo = await makeRepo(t, {
    'a.ts': 'export function a() {}\n',
    'b.tsx': 'export function b() { return <p />; }\n',
    'c.js': 'export function c() {}\n',
    'd.py': 'def d():\n    pass\n',
    'e.go': 'package e\n\nfunc E() {}\n',
    'f.rs': 'pub fn f() {}\n',
    'G.java': 'class G { void g() {} }\n',
    'h.kt': 'fun h() {}\n',
    'I.cs': 'class I { void M() {} }\n',
    'j.rb': 'def j; end\n',
    'k.php': '<?php\nfunction k() {}\n',
    'l.c': 'void l(void) {}\n',
    'm.cpp': 'void m() {}\n',
    'notes.txt': 'not parsed\n',
  });
  const server = await startTestServer(t, repo);
  const graph = (await server.api('/api/graph')).body.data as { nodes: Array<{ id: string; kind: string; path: string; language?: string }> };
  const parsed = new Set(
    graph.nodes.filter((node) => node.id.startsWith('sym:')).map((node) => graph.nodes.find((file) => file.id === `file:${node.path}`)?.language),
  );
  t.equal(parsed.size, 13, 'each fixture file got its symbol');
  const document = (await server.api('/api/openapi.json')).body;
  const schema = document.paths['/api/graph'].get.responses['200'].content['application/json'].schema.properties.data.properties;
  const languageText: string = schema.nodes.items.properties.language.description;
  const importsText: string = schema.edges.items.properties.kind.description;
  /** How the imports rule names each language. */
  const named: Record<string, string> = {
    typescript: 'TypeScript',
    tsx: 'TypeScript',
    javascript: 'TypeScript',
    python: 'Python',
    go: 'Go',
    rust: 'Rust',
    java: 'Java',
    kotlin: 'Kotlin',
    'c#': 'C#',
    ruby: 'Ruby',
    php: 'PHP',
    c: 'C and C++',
    'c++': 'C and C++',
  };
  for (const language of parsed) {
    t.ok(languageText.includes(`\`${language}\``), `the language field names \`${language}\``);
    t.ok(importsText.includes(named[language!] ?? `(no rule for ${language})`), `the imports edge states ${language}'s rule`);
  }
});

t.test('with authToken set, the document says every operation needs the bearer token', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const token = 'a-long-enough-secret-token';
  const server = await startTestServer(t, repo, { env: { STRATA_AUTH_TOKEN: token } });
  const { status, body: document } = await request(server.url, '/api/openapi.json', { headers: { authorization: `Bearer ${token}` } });
  t.equal(status, 200);
  const result = await new Validator().validate(document);
  t.same(result.errors ?? [], [], 'still a valid OpenAPI 3.1 document');
  t.same(document.security, [{ bearer: [] }]);
  t.match(document.components.securitySchemes, { bearer: { type: 'http', scheme: 'bearer' } });
  for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, { responses: Record<string, { description: string }> }>>)) {
    for (const [method, operation] of Object.entries(methods))
      t.match(operation.responses['401']?.description, /UNAUTHORIZED/, `${method} ${path} documents 401`);
  }
});

t.test('what the server answers conforms to the schemas the document publishes', async (t) => {
  const repo = await makeRepo(t, SAMPLE_REPO);
  const server = await startTestServer(t, repo);
  const document = (await server.api('/api/openapi.json')).body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const check = (path: string, method: string, status: number, body: unknown): void => {
    const pointer = `openapi.json#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses/${status}/content/application~1json/schema`;
    const validate = ajv.getSchema(pointer);
    t.ok(validate, `${method} ${path} documents status ${status}`);
    t.ok(validate?.(body), `${method} ${path} ${status} conforms: ${JSON.stringify(validate?.errors?.slice(0, 2))}`);
  };
  await server.api('/api/graph/layout', postJson({ positions: { 'file:src/index.ts': { x: 1, y: 2 } } }));
  check('/api/graph', 'get', 200, (await server.api('/api/graph')).body);
  check('/api/graph/nodes/{id}', 'get', 200, (await server.api(nodePath('file:src/index.ts'))).body);
  check('/api/graph/nodes/{id}', 'get', 404, (await server.api(nodePath('nope'))).body);
  check('/api/graph/layout', 'post', 200, (await server.api('/api/graph/layout', postJson({ positions: {} }))).body);
  check('/api/graph/layout', 'post', 400, (await server.api('/api/graph/layout', postJson({ positions: 1 }))).body);
  check('/api/graph/layout', 'delete', 200, (await server.api('/api/graph/layout', { method: 'DELETE' })).body);
  check('/api/graph/changes', 'get', 200, (await server.api('/api/graph/changes?since=1')).body);
  check('/api/graph/changes', 'get', 200, (await server.api('/api/graph/changes?since=0')).body);
  check('/api/graph/changes', 'get', 400, (await server.api('/api/graph/changes?since=x')).body);
  check('/api/overlays', 'get', 200, (await server.api('/api/overlays')).body);
});
