// What must never ship in a package (issue #32): a secret-looking value or a local config file.
// The build runs it over the assets it copies (copy-assets.mjs refuses to finish), and
// test/packaging.test.ts over the text of every file `npm pack` puts in a tarball.

/** Patterns of values that are secrets, or hashes of them, whatever file they are in. */
const SECRET_PATTERNS = [
  // The console's timing dummy is all A's: a real salt is random.
  [/scrypt\$\d+\$\d+\$\d+\$(?!A+\$)[A-Za-z0-9+/_-]{16,}\$/, 'a password hash (scrypt$…)'],
  [/\b(?:sha256|tokenSha256|passwordHash|keyHash|secretHash)["']?\s*[:=]\s*["']?[0-9a-f]{64}\b/i, 'an API key or token hash'],
  [/\b(?:sk|rk)_live_[A-Za-z0-9]{8,}/, 'a live Stripe key'],
  [/-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/, 'a private key'],
  [/\bAKIA[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bSVC_SECRET=[^\s$]{8,}/, 'a server secret'],
];

/** In a config file (YAML, JSON, .env), a secret key with a value. */
const CONFIG_FILE = /\.(?:ya?ml|json|env)$/i;
const CONFIG_SECRET = /^\s*["']?(?:secret|secretKey|webhookSecret|password|accessKeyId|secretAccessKey|smtpUrl)["']?\s*:\s*["']?(?!null\b|~)[^\s#"',}]{12,}/im;

/** Files that are a machine's own: config, environment, data. The demo's config is shipped on purpose. */
const LOCAL_FILE = /(?:^|\/)(?:\.env(?:\..*)?|\.npmrc|secret|svc\.config(?:\.[^/]*)?\.(?:ya?ml|json)|[^/]*\.(?:db|sqlite|sqlite3|db-wal|db-shm|pem|key))$/i;
const SHIPPED_CONFIGS = new Set(['assets/examples/svc.config.yaml']);

/** What is wrong with a file of a package (its path inside the package and its text), or []. */
export function packagedFileProblems(path, text) {
  const problems = [];
  if (LOCAL_FILE.test(path) && !SHIPPED_CONFIGS.has(path)) problems.push(`${path}: a local config or data file`);
  const patterns = CONFIG_FILE.test(path) ? [...SECRET_PATTERNS, [CONFIG_SECRET, 'a secret in a config key']] : SECRET_PATTERNS;
  const lines = text.split('\n');
  for (const [pattern, what] of patterns) {
    const line = lines.findIndex((content) => pattern.test(content));
    if (line >= 0) problems.push(`${path}:${line + 1}: ${what}`);
  }
  return problems;
}
