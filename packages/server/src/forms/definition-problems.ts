/**
 * Problems found while loading form definition files, how they are located in the source text
 * and how they are reported (`forms/contact.yaml:12:5 pages[0].rows[1][0].maxLength: must be >= 1`).
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export interface DefinitionProblem {
  /** The file as given: the forms directory joined with the file name. */
  readonly file: string;
  /** JS-style path into the file's data (`pages[0].rows[1][0].maxLength`); '' for the whole file. */
  readonly path: string;
  readonly message: string;
  /** 1-based line of the offending node (or of its nearest enclosing node), when known. */
  readonly line?: number;
  readonly column?: number;
}

/** A path as segments: object keys and array indexes. */
export type PathSegments = readonly (string | number)[];

/** A problem before it is tied to a file and a source position. */
export interface PathProblem {
  readonly path: PathSegments;
  readonly message: string;
}

export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['pages', 0, 'rows', 1, 0, 'maxLength']` -> `pages[0].rows[1][0].maxLength`. */
export function formatPath(path: PathSegments): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** One line per problem: `file:line:column path: message`, the position and path only when known. */
export function formatDefinitionProblems(problems: readonly DefinitionProblem[]): string {
  return problems
    .map((problem) => {
      let where = problem.file;
      if (problem.line !== undefined) {
        where += `:${problem.line}`;
        if (problem.column !== undefined) where += `:${problem.column}`;
      }
      const subject = problem.path === '' ? where : `${where} ${problem.path}`;
      return `${subject}: ${problem.message}`;
    })
    .join('\n');
}

/** Thrown by callers that cannot start with invalid definitions (boot, `svc forms check`). */
export class FormDefinitionError extends Error {
  readonly problems: readonly DefinitionProblem[];

  constructor(problems: readonly DefinitionProblem[]) {
    super(`Invalid form definitions:\n${formatDefinitionProblems(problems)}`);
    this.name = 'FormDefinitionError';
    this.problems = problems;
  }
}

/** Finds where a path sits in a parsed YAML (or JSON) document. */
export interface SourceLocator {
  locate(path: PathSegments): SourcePosition | undefined;
}

/**
 * Locates a path by walking the document's nodes. A map entry is located at its key (where a
 * reader looks for `maxLength:`), a list item at the item. When the path does not exist (a
 * missing required property) the nearest existing ancestor is used; the document root is never
 * reported, since "line 1" would point at nothing in particular.
 */
export function createSourceLocator(doc: Document, lineCounter: LineCounter): SourceLocator {
  const positionOf = (node: unknown): SourcePosition | undefined => {
    const range = (node as Node | null | undefined)?.range;
    if (!range) return undefined;
    const { line, col } = lineCounter.linePos(range[0]);
    return { line, column: col };
  };
  const resolve = (node: unknown): unknown => (isAlias(node) ? node.resolve(doc) : node);

  return {
    locate(path) {
      let node = resolve(doc.contents);
      let best: SourcePosition | undefined;
      for (const segment of path) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => isScalar(item.key) && String(item.key.value) === String(segment),
          );
          if (!pair) break;
          best = positionOf(pair.key) ?? positionOf(pair.value) ?? best;
          node = resolve(pair.value);
        } else if (isSeq(node) && typeof segment === 'number') {
          const item: unknown = node.items[segment];
          if (item === undefined) break;
          best = positionOf(item) ?? best;
          node = resolve(item);
        } else {
          break;
        }
      }
      return best;
    },
  };
}

/** A locator for text that could not be parsed into nodes. */
export const NO_SOURCE_LOCATOR: SourceLocator = { locate: () => undefined };

/** Ties path problems to a file and their source positions. */
export function toDefinitionProblems(
  file: string,
  locator: SourceLocator,
  problems: readonly PathProblem[],
): DefinitionProblem[] {
  return problems.map((problem) => {
    const position = locator.locate(problem.path);
    return {
      file,
      path: formatPath(problem.path),
      message: problem.message,
      ...(position ? { line: position.line, column: position.column } : {}),
    };
  });
}
