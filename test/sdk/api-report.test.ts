// The API reports of the author-facing packages (sdk/etc/sdk.api.md,
// sdk/testing/etc/sdk-testing.api.md) must match their built typings, so
// that a change to the public API shows as a diff of a report in review.
// API Extractor makes the report again from dist/index.d.ts (as CI builds it)
// and compares; `npm run api:report` rewrites the committed reports.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';
import t from 'tap';

const root = path.resolve(fileURLToPath(import.meta.url), '../../..');

/** The packages with an API report: their folder and the report API Extractor keeps in it. */
const PACKAGES = [
  { name: '@strata/sdk', folder: 'sdk', report: 'sdk/etc/sdk.api.md' },
  { name: '@strata/sdk-testing', folder: 'sdk/testing', report: 'sdk/testing/etc/sdk-testing.api.md' },
];

for (const pkg of PACKAGES) {
  t.test(`the API report of ${pkg.name} (${pkg.report}) matches its typings`, async (t) => {
    const configFile = path.join(root, pkg.folder, 'api-extractor.json');
    const configObject = ExtractorConfig.loadFile(configFile);
    // The report made now goes to a folder of the test's own, not to the package's temp/.
    const temp = mkdtempSync(path.join(tmpdir(), 'strata-api-report-'));
    t.teardown(() => rmSync(temp, { recursive: true, force: true }));
    configObject.apiReport = { ...configObject.apiReport!, reportTempFolder: temp };
    const config = ExtractorConfig.prepare({
      configObject,
      configObjectFullPath: configFile,
      packageJsonFullPath: path.join(root, pkg.folder, 'package.json'),
    });
    t.equal(path.relative(root, path.join(config.reportFolder, config.reportConfigs[0]!.fileName)), pkg.report, 'the report is where this test says');

    const messages: ExtractorMessage[] = [];
    const result = Extractor.invoke(config, {
      // As CI runs it: the committed report is compared, never rewritten.
      localBuild: false,
      printApiReportDiff: true,
      messageCallback: (message) => {
        message.handled = true;
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) messages.push(message);
      },
    });

    // A changed report is told once, with its diff; anything else API Extractor warns of, apart.
    const diff = messages.find((message) => message.messageId === 'console-api-report-diff')?.text;
    if (result.apiReportChanged) {
      t.fail(
        `The public API of ${pkg.name} no longer matches ${pkg.report}. If the change is meant, run \`npm run api:report\` and commit the diff of ${pkg.report}: it is what review sees of an API change.`,
        {
          diff: diff ?? '(no diff: the report file is missing)',
        },
      );
    } else {
      t.pass('the committed report is the API of the built typings');
    }
    const problems = messages
      .filter((message) => !String(message.messageId).startsWith('console-api-report-'))
      .map((message) => {
        const where = message.sourceFilePath ? `${path.relative(root, message.sourceFilePath)}:${message.sourceFileLine}:${message.sourceFileColumn}: ` : '';
        return `${where}(${message.messageId}) ${message.text}`;
      });
    t.same(problems, [], `API Extractor has no error or warning for ${pkg.name}`);
  });
}
