/**
 * Every failure of the `svc` command is one line a person can act on (issue #11): a bad flag, a
 * path that cannot be written, a database that does not answer. The stack trace is for us, and
 * only with SVC_DEBUG=1.
 */
import { ConfigError } from '../config/config-error.js';
import { FormDefinitionError } from '../forms/definition-problems.js';

type SystemError = Error & { code?: string; path?: string; syscall?: string; address?: string; port?: number };

const FILE_PROBLEMS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  ENOSPC: 'no space left on the device',
};

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'ECONNRESET', 'EHOSTUNREACH']);

function firstLine(text: string): string {
  return text.split('\n')[0]?.trim() ?? '';
}

/** The exit code and the one line to print for `error`. */
export function describeCliError(error: unknown): { exitCode: number; message: string } {
  if (error instanceof ConfigError || error instanceof FormDefinitionError) return { exitCode: 1, message: error.message };
  const e = (error ?? {}) as SystemError;
  if (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS')) {
    return { exitCode: 2, message: `svc: ${firstLine(e.message)} (svc --help lists the commands and options)` };
  }
  if (typeof e.code === 'string' && e.path && FILE_PROBLEMS[e.code]) {
    return { exitCode: 1, message: `svc: cannot ${e.syscall ?? 'use'} ${e.path}: ${FILE_PROBLEMS[e.code]}` };
  }
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) {
    const where = e.address ? ` at ${e.address}${e.port ? `:${e.port}` : ''}` : '';
    return { exitCode: 1, message: `svc: cannot reach the database or service${where} (${e.code}); is it running, and is database.url right?` };
  }
  // PostgreSQL's own refusals (a wrong password, a missing database) carry a SQLSTATE code.
  if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code) && 'severity' in e) {
    return { exitCode: 1, message: `svc: the database refused: ${firstLine(e.message)}` };
  }
  return { exitCode: 1, message: `svc: ${firstLine(e instanceof Error ? e.message : String(error)) || 'failed'}` };
}
