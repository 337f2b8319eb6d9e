/** `svc forms check [dir]`: the same validation the server runs at boot, every problem at once. */
import { formatDefinitionProblems, loadFormDefinitions } from '../forms/definition-loader.js';
import { existsSync } from 'node:fs';
import { loadConfig } from '../config/config-loader.js';
import type { CommandOptions } from './command-options.js';
import { untranslatedStrings } from '../forms/translation-checks.js';
import { checkTemplateFiles } from '../notifications/template-check.js';
import type { Config } from '../config/config-schema.js';

/**
 * The config beside a directory named on the command line, for its templates directory only: a
 * config that does not load leaves the templates unchecked rather than failing a forms check.
 */
function configBeside(options: CommandOptions): Config | null {
  try {
    return loadConfig({ file: options.configFile, demo: options.demo, offline: true });
  } catch {
    return null;
  }
}

export async function runFormsCheck(options: CommandOptions & { readonly dir: string | undefined }): Promise<number> {
  // A directory given on the command line needs no config (and so no secret).
  const config = options.dir === undefined ? loadConfig({ file: options.configFile, demo: options.demo, offline: true }) : null;
  const dir = options.dir ?? (config as Config).forms.dir;
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
  // issue #34: the email templates the forms name, and each language folder of theirs, must parse.
  const templatesDir = (config ?? configBeside(options))?.notifications.templatesDir ?? null;
  if (templatesDir !== null && (config !== null || existsSync(templatesDir))) {
    const named = definitions.map(({ definition }) => ({ handle: definition.handle, form: { settings: definition.settings, fields: definition.pages.flatMap((page) => page.rows.flat()) } }));
    const { errors, warnings } = await checkTemplateFiles(named, templatesDir);
    for (const warning of warnings) process.stdout.write(`warning: ${warning}\n`);
    if (errors.length > 0) {
      process.stderr.write(`${errors.join('\n')}\n${errors.length} problem(s) in ${templatesDir}\n`);
      return 1;
    }
  }
  process.stdout.write(`${definitions.length} form(s) OK in ${dir}: ${definitions.map((d) => d.definition.handle).join(', ')}\n`);
  return 0;
}
