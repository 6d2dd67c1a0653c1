import { readFileSync } from 'node:fs';
import { ConfigError, loadConfig } from '@strata/host';
import t from 'tap';
import { SETTINGS_VALIDATOR_FILE, settingsValidatorModule } from '../../host/scripts/generate-settings-validator.ts';

t.test('the committed settings validator is what the schema gives', async (t) => {
  t.equal(
    readFileSync(SETTINGS_VALIDATOR_FILE, 'utf8'),
    settingsValidatorModule(),
    'run `npm run build && npm run generate:settings -w @strata/host` after changing src/config/settings-schema.ts',
  );
});

t.test('the generated checks judge each source as the schema says, naming the source and the key', async (t) => {
  const load = (sources: Partial<Parameters<typeof loadConfig>[0]>) => () => loadConfig({ repository: '.', env: {}, ...sources });
  t.equal(
    loadConfig({
      repository: '.',
      env: { STRATA_PLUGINS_MEMORY_MB: '64', STRATA_LAYOUT_BACKEND: 'wasm', STRATA_DEV: 'true', STRATA_PLUGINS_DIRECTORIES: 'a, b' },
      cwd: '/x',
    }).plugins.memoryMb,
    64,
  );
  const config = loadConfig({ repository: '.', env: { STRATA_LAYOUT_BACKEND: 'wasm', STRATA_DEV: '1', STRATA_PLUGINS_DIRECTORIES: 'a, b' }, cwd: '/x' });
  t.same([config.layout.backend, config.dev, config.plugins.directories], ['wasm', true, ['/x/a', '/x/b']], "variables are coerced to their setting's type");
  t.throws(
    load({ env: { STRATA_LAYOUT_BACKEND: 'gpu' } }),
    new ConfigError('environment variable STRATA_LAYOUT_BACKEND: must be one of "auto", "tensorflow-gpu", "tensorflow", "webgpu", "wasm", "cpu"'),
  );
  t.throws(
    load({ env: { STRATA_AUTH_TOKEN: 'short' } }),
    new ConfigError('environment variable STRATA_AUTH_TOKEN: must NOT have fewer than 16 characters'),
    'minLength counts characters',
  );
  t.throws(load({ env: { STRATA_WATCH: 'maybe' } }), new ConfigError('environment variable STRATA_WATCH: must be boolean'));
  t.throws(load({ flags: { plugins: { memoryMb: 4 } } }), new ConfigError('--plugins-memory-mb: must be >= 8'));
  t.throws(load({ flags: { layout: { colour: 1 } } as never }), new ConfigError('--layout-colour: is not a known field'));
  t.throws(load({ flags: { host: '' } }), new ConfigError('--host: must NOT have fewer than 1 characters'));
});
