/** What is wrong with a file of a package (its path inside the package and its text), or []. */
export function packagedFileProblems(path: string, text: string): string[];
