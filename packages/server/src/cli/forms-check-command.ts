/** `svc forms check [dir]`: the same validation the server runs at boot, every problem at once. */
import { formatDefinitionProblems, loadFormDefinitions } from '../forms/definition-loader.js';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/config-loader.js';
import type { CommandOptions } from './command-options.js';
import { untranslatedStrings } from '../forms/translation-checks.js';

export async function runFormsCheck(options: CommandOptions & { readonly dir: string | undefined }): Promise<number> {
  // A directory given on the command line needs no config (and so no secret).
  const dir = options.dir ?? loadConfig({ file: options.configFile, demo: options.demo, offline: true }).forms.dir;
  if (!existsSync(dir)) {
    process.stderr.write(`svc: the forms directory ${dir} does not exist; name one (svc forms check DIR) or set forms.dir\n`);
    return 1;
  }
  const { definitions, problems } = await loadFormDefinitions(dir);
  if (problems.length > 0) {
    process.stderr.write(`${formatDefinitionProblems(problems)}\n${problems.length} problem(s) in ${dir}\n`);
    return 1;
  }
  // issue #34: untranslated strings show the form's own; worth a look, never a failure.
  for (const { file, definition, translations } of definitions) {
    for (const { language, paths } of untranslatedStrings(definition, translations)) {
      process.stdout.write(`warning: ${file}: translations.${language}: ${paths.length} string(s) not translated (shown in the form's own words): ${paths.join(', ')}\n`);
    }
  }
  process.stdout.write(`${definitions.length} form(s) OK in ${dir}: ${definitions.map((d) => d.definition.handle).join(', ')}\n`);
  return 0;
}
