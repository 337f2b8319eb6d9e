/**
 * "Forms as code": reads every form definition file of the forms directory, validates it against
 * `schema/form-definition.schema.json`, normalises it into the `FormDefinition` model and runs the
 * checks the schema cannot express. Every problem of every file is collected so a site owner
 * fixes them in one pass instead of one boot at a time.
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import type { FormDefinition } from '@svc/core';
import { checkDefinition } from './definition-checks.js';
import { normaliseDefinition } from './definition-normalise.js';
import {
  NO_SOURCE_LOCATOR,
  createSourceLocator,
  toDefinitionProblems,
  type DefinitionProblem,
  type SourceLocator,
} from './definition-problems.js';
import { validateDefinitionData } from './definition-schema.js';
import type { FormTranslations } from './form-translations.js';
import { translationProblems } from './translation-checks.js';

export { FormDefinitionError, formatDefinitionProblems, type DefinitionProblem } from './definition-problems.js';
export { DEFAULT_FORM_SETTINGS } from './definition-normalise.js';

export interface LoadedDefinition {
  readonly file: string;
  readonly definition: FormDefinition;
  /** The file's `translations` (issue #34); empty when it has none. */
  readonly translations: FormTranslations;
}

export interface DefinitionLoadResult {
  /** Definitions of the files without any problem, in file-name order. */
  readonly definitions: readonly LoadedDefinition[];
  readonly problems: readonly DefinitionProblem[];
}

const DEFINITION_EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
const FORM_HANDLE = /^[a-z][a-z0-9-]*$/;

/**
 * Reads every `*.yaml`, `*.yml` and `*.json` file in `dir` (not recursive, sorted by name),
 * parses, validates, normalises and checks them. Bad files never throw: their problems are
 * returned, all files together, and only files without problems appear in `definitions`.
 * Throws only when `dir` itself cannot be listed (a configuration error, not a definition one).
 */
export async function loadFormDefinitions(dir: string): Promise<DefinitionLoadResult> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new Error(`Cannot read the forms directory ${dir}: ${(error as Error).message}`, { cause: error });
  }
  // Code-unit order, so the result does not depend on the machine's locale.
  const files = names
    .filter((name) => DEFINITION_EXTENSIONS.has(extname(name).toLowerCase()))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const loaded = await Promise.all(files.map((name) => loadFile(join(dir, name), name)));

  const crossFile = checkAcrossFiles(loaded);
  const problems = loaded.flatMap((file) =>
    sortBySource([...file.problems, ...(crossFile.get(file.file) ?? [])]),
  );
  const definitions = loaded.flatMap((file) =>
    file.definition && file.problems.length === 0 && !crossFile.has(file.file)
      ? [{ file: file.file, definition: file.definition, translations: file.translations }]
      : [],
  );
  return { definitions, problems };
}

/** Source order within a file; problems of the whole file (no line) first. The sort is stable. */
function sortBySource(problems: DefinitionProblem[]): DefinitionProblem[] {
  return problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
}

interface FileResult {
  readonly file: string;
  readonly problems: readonly DefinitionProblem[];
  /** Present when the file was schema-valid, even if later checks found problems. */
  readonly definition?: FormDefinition;
  readonly translations: FormTranslations;
  readonly handleWritten: boolean;
  readonly locator: SourceLocator;
}

async function loadFile(file: string, name: string): Promise<FileResult> {
  const failed = (problems: DefinitionProblem[], locator = NO_SOURCE_LOCATOR): FileResult => ({
    file,
    problems,
    translations: {},
    handleWritten: false,
    locator,
  });
  let text: string;
  try {
    text = (await readFile(file, 'utf8')).replace(/^\uFEFF/, '');
  } catch (error) {
    return failed([{ file, path: '', message: `cannot be read: ${(error as Error).message}` }]);
  }
  const parsed = extname(name).toLowerCase() === '.json' ? parseJson(file, text) : parseYaml(file, text);
  if ('problems' in parsed) return failed(parsed.problems);
  const { data, locator } = parsed;

  const schema = validateDefinitionData(data);
  if (!schema.valid) return failed(toDefinitionProblems(file, locator, schema.problems), locator);

  const fileHandle = name.slice(0, name.length - extname(name).length);
  const normalised = normaliseDefinition(schema.data, fileHandle);
  const translations = schema.data.translations ?? {};
  const pathProblems = [...checkDefinition(normalised), ...translationProblems(normalised.definition, translations)];
  if (schema.data.handle === undefined && !FORM_HANDLE.test(fileHandle)) {
    pathProblems.unshift({
      path: ['handle'],
      message: `is required: the file name "${fileHandle}" is not a valid handle (kebab-case, like "contact-us")`,
    });
  }
  return {
    file,
    problems: toDefinitionProblems(file, locator, pathProblems),
    definition: normalised.definition,
    translations,
    handleWritten: schema.data.handle !== undefined,
    locator,
  };
}

type Parsed = { readonly data: unknown; readonly locator: SourceLocator } | { readonly problems: DefinitionProblem[] };

function parseYaml(file: string, text: string): Parsed {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  if (doc.errors.length > 0) {
    return {
      problems: doc.errors.map((error) => {
        const { line, col } = lineCounter.linePos(error.pos[0]);
        return { file, path: '', message: error.message, line, column: col };
      }),
    };
  }
  try {
    return { data: doc.toJS(), locator: createSourceLocator(doc, lineCounter) };
  } catch (error) {
    // toJS refuses alias bombs ("Excessive alias count …").
    return { problems: [{ file, path: '', message: (error as Error).message }] };
  }
}

function parseJson(file: string, text: string): Parsed {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    // V8 says "… in JSON at position 12"; turn the offset into a line and column.
    const offset = /at position (\d+)/.exec(message)?.[1];
    const lineCounter = new LineCounter();
    parseDocument(text, { lineCounter });
    const position = offset === undefined ? undefined : lineCounter.linePos(Number(offset));
    return {
      problems: [{ file, path: '', message, ...(position ? { line: position.line, column: position.col } : {}) }],
    };
  }
  // JSON is YAML 1.2, so the YAML parser gives source positions for JSON files too.
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter });
  const locator = doc.errors.length === 0 ? createSourceLocator(doc, lineCounter) : NO_SOURCE_LOCATOR;
  return { data, locator };
}

/** Form handles and uids name one form each across the whole directory; report every holder. */
function checkAcrossFiles(files: readonly FileResult[]): Map<string, DefinitionProblem[]> {
  const byFile = new Map<string, DefinitionProblem[]>();
  const report = (holders: readonly FileResult[], key: 'handle' | 'uid', describe: (f: FileResult) => string): void => {
    for (const holder of holders) {
      const others = holders.filter((other) => other !== holder).map((other) => other.file);
      const problems = byFile.get(holder.file) ?? [];
      problems.push(
        ...toDefinitionProblems(holder.file, holder.locator, [
          { path: [key], message: `${describe(holder)} is also used by ${others.join(', ')}` },
        ]),
      );
      byFile.set(holder.file, problems);
    }
  };
  const group = (keyOf: (definition: FormDefinition) => string | undefined): FileResult[][] => {
    const groups = new Map<string, FileResult[]>();
    for (const file of files) {
      const key = file.definition ? keyOf(file.definition) : undefined;
      if (key !== undefined) groups.set(key, [...(groups.get(key) ?? []), file]);
    }
    return [...groups.values()].filter((holders) => holders.length > 1);
  };

  for (const holders of group((definition) => definition.handle)) {
    report(holders, 'handle', (file) =>
      file.handleWritten
        ? `form handle "${file.definition?.handle}"`
        : `form handle "${file.definition?.handle}" (from the file name)`,
    );
  }
  // UUIDs compare case-insensitively.
  for (const holders of group((definition) => definition.uid?.toLowerCase())) {
    report(holders, 'uid', (file) => `uid "${file.definition?.uid}"`);
  }
  return byFile;
}
