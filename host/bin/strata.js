#!/usr/bin/env node
// Plain JavaScript that any Node can parse, so that an old Node gets a clear message.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  process.stderr.write(`strata: Node.js 22 or later is required; this is Node.js ${process.versions.node}\n`);
  process.exit(1);
}
// Node keeps the compiled modules in its cache directory (as npm does): later starts skip compiling them.
// NODE_DISABLE_COMPILE_CACHE=1 turns this off.
const { enableCompileCache } = await import('node:module');
enableCompileCache?.();
// Output piped into a reader that stops early (`strata overlay status x | head -1`): stop quietly, as Unix tools do,
// instead of an unhandled EPIPE with a stack.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}
await import('../dist/cli/main.js');
