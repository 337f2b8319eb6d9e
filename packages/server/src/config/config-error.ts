/**
 * What a config that cannot be used throws: every problem, one line each. Apart from the loader,
 * so the `svc` command's error reporting needs nothing that compiles the config schema.
 */
export class ConfigError extends Error {
  readonly problems: readonly string[];
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}
