#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so that an old Node gets a clear message.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`strata: Node.js 22 or later is required; this is Node.js ${process.versions.node}\n`);
  process.exit(1);
}
await import('../dist/cli/main.js');
