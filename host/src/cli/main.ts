import 'reflect-metadata';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config/config-loader.js';
import { HOST_VERSION } from '../host-version.js';
import { ListenError } from '../http/listen-error.js';
import { DataDirectoryError } from '../storage/data-directory-error.js';
import { analysisCommands } from './analysis-command.js';
import { checkCommand, RulesFileError } from './check-command.js';
import { exportCommand } from './export-command.js';
import { hotspotsCommand } from './hotspots-command.js';
import { OperationError, overlayCommand } from './overlay-command.js';
import { PluginStepError, pluginCommand } from './plugin-command.js';
import { serveCommand } from './serve-command.js';
import { UsageError } from './usage-error.js';
import { writeLine } from './write-line.js';

/** How long a failed command may take to stop what it started before it is ended. */
const EXIT_GRACE_MS = 10_000;

const program = new Command('strata')
  .description('Strata: the code graph of a repository, served over HTTP, painted by overlay plugins')
  .version(HOST_VERSION, '-v, --version')
  .showHelpAfterError()
  .exitOverride()
  .addCommand(serveCommand())
  .addCommand(pluginCommand())
  .addCommand(overlayCommand());
for (const command of [...analysisCommands(), checkCommand(), hotspotsCommand(), exportCommand()]) program.addCommand(command);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode;
  } else if (error instanceof RulesFileError) {
    // One line per mistake of the rules.
    writeLine(process.stderr, `strata: ${error.message}`, { keepLineBreaks: true });
    process.exitCode = 2;
  } else if (error instanceof UsageError || error instanceof ConfigError) {
    writeLine(process.stderr, `strata: ${error.message}`);
    process.exitCode = 2;
  } else if (error instanceof ListenError || error instanceof DataDirectoryError || error instanceof OperationError || error instanceof PluginStepError) {
    writeLine(process.stderr, `strata: ${error.message}`);
    process.exitCode = 1;
  } else {
    writeLine(process.stderr, `strata: ${(error as Error).stack ?? String(error)}`, { keepLineBreaks: true });
    process.exitCode = 1;
  }
  // A failed command ends, whatever it left running (a part that did not stop is a bug, but never a hang).
  setTimeout(() => {
    process.stderr.write('strata: exiting: something was still running after the error\n');
    process.exit();
  }, EXIT_GRACE_MS).unref();
}
