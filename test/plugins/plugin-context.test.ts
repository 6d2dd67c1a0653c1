// PluginContext alone (host/src/plugins/plugin-context.ts): what the host's parts hold for a plugin, released
// together when it goes. Its use: test/overlays/overlay-service.test.ts (the overlays' results held in it), and
// over HTTP test/plugins/overlays.test.ts (a deleted plugin folder takes its overlays with it).
import t from 'tap';
import { PluginContext } from '../../host/dist/plugins/plugin-context.js';

t.test('what is held is released once, the last held first, and the context says it has gone', async (t) => {
  const context = new PluginContext('paint');
  const released: string[] = [];
  const logs = context.hold({ dispose: () => void released.push('logs') });
  context.hold({
    dispose: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      released.push('results');
    },
  });
  t.equal(typeof logs.dispose, 'function', 'hold gives back what it holds');
  t.equal(context.isDisposed, false);
  await context.dispose();
  t.same(released, ['results', 'logs'], 'in reverse order, each awaited');
  t.equal(context.isDisposed, true);
  await context.dispose();
  t.same(released, ['results', 'logs'], 'a second dispose releases nothing again');
});

t.test('one that fails does not keep the others: all are tried, then the failures are told together', async (t) => {
  const context = new PluginContext('paint');
  const released: string[] = [];
  context.hold({ dispose: () => void released.push('first') });
  context.hold({
    dispose: () => {
      throw new Error('the store is gone');
    },
  });
  context.hold({ dispose: () => Promise.reject(new Error('the disk is full')) });
  context.hold({ dispose: () => void released.push('last') });
  const error = await context.dispose().then(
    () => undefined,
    (failure: unknown) => failure,
  );
  t.ok(error instanceof AggregateError, 'an AggregateError');
  t.match((error as AggregateError).message, /plugin "paint" held: 2 failed/);
  t.same(
    (error as AggregateError).errors.map((failure: Error) => failure.message),
    ['the disk is full', 'the store is gone'],
  );
  t.same(released, ['last', 'first']);
});

t.test('held after the plugin has gone: released at once', async (t) => {
  const context = new PluginContext('paint');
  await context.dispose();
  let released = 0;
  context.hold({ dispose: () => void released++ });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(released, 1);
  await context.dispose();
  t.equal(released, 1, 'and not kept to be released again');
});
