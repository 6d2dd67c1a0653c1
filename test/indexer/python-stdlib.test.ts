import { readFileSync } from 'node:fs';
import t from 'tap';
import { installedStdlib, PYTHON_STDLIB_FILE, pythonStdlibModule } from '../../host/scripts/generate-python-stdlib.ts';

t.test("the committed list of Python's standard library modules has every name of the installed python3's", async (t) => {
  // Throws, naming python3, when there is none: the check is not skipped.
  const installed = installedStdlib();
  t.ok(installed.names.includes('os') && installed.names.includes('asyncio'), `python3 ${installed.version} lists its standard library`);
  t.equal(
    readFileSync(PYTHON_STDLIB_FILE, 'utf8'),
    pythonStdlibModule(installed),
    'run `npm run generate:python-stdlib -w @strata/host` with this Python (names are added, none removed)',
  );
});
