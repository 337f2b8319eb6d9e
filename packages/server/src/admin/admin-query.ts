/**
 * Query strings of the admin list and export routes (and the CLI, which passes its flags through
 * the same parser): every parameter checked, unknown ones refused, so a typo (`stauts=open`)
 * never silently returns everything. Failures are 400 PAYLOAD_INVALID naming the parameter.
 */
import { SvcError } from '@svc/core';
import type { SubmissionFilter, SubmissionSort } from '../submissions/submission-search.js';

export interface ListQuery {
  readonly filter: SubmissionFilter;
  readonly sort: SubmissionSort;
  readonly limit: number;
  readonly cursor: string | null;
}

export type ExportFormat = 'csv' | 'jsonl';

export interface ExportQuery {
  readonly filter: SubmissionFilter;
  readonly sort: SubmissionSort;
  readonly format: ExportFormat;
  readonly bom: boolean;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

type Raw = Readonly<Record<string, unknown>>;

function invalid(message: string): SvcError {
  return new SvcError('PAYLOAD_INVALID', message);
}

function single(raw: Raw, name: string): string | undefined {
  const value = raw[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid(`"${name}" must be given once.`);
  return value;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO date or date-time as the stored ISO text; a date alone as `to` means the end of that day. */
function parseDate(name: 'from' | 'to', value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const time = DATE_ONLY.test(value) ? Date.parse(`${value}T00:00:00Z`) : DATE_TIME.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(time)) throw invalid(`"${name}" must be an ISO date (2026-11-22) or date-time (2026-11-22T10:00:00Z).`);
  const day = name === 'to' && DATE_ONLY.test(value) ? 86_400_000 : 0;
  return new Date(time + day).toISOString();
}

/** The list route's filters (`spam` defaults to false: not spam); the bulk route reads the same. */
export function parseFilter(raw: Raw, statuses: readonly string[]): SubmissionFilter {
  const status = single(raw, 'status');
  if (status !== undefined && !statuses.includes(status)) throw invalid(`"status" must be one of ${statuses.join(', ')}.`);
  const spam = single(raw, 'spam') ?? 'false';
  if (spam !== 'true' && spam !== 'false' && spam !== 'all') throw invalid('"spam" must be true, false or all.');
  const q = single(raw, 'q');
  if (q !== undefined && q.length > 200) throw invalid('"q" must be at most 200 characters.');
  const from = parseDate('from', single(raw, 'from'));
  const to = parseDate('to', single(raw, 'to'));
  return {
    spam: spam === 'all' ? null : spam === 'true',
    ...(status !== undefined ? { status } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(q !== undefined && q !== '' ? { q } : {}),
  };
}

function parseSort(raw: Raw, defaultDirection: 'asc' | 'desc'): SubmissionSort {
  const key = single(raw, 'sort') ?? 'createdAt';
  if (key !== 'createdAt' && key !== 'id') throw invalid('"sort" must be createdAt or id.');
  const direction = single(raw, 'order') ?? defaultDirection;
  if (direction !== 'asc' && direction !== 'desc') throw invalid('"order" must be asc or desc.');
  return { key, direction };
}

function refuseUnknown(raw: Raw, known: readonly string[]): void {
  const unknown = Object.keys(raw).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw invalid(`Unknown parameter(s): ${unknown.map((k) => k.slice(0, 40)).join(', ')}.`);
}

const FILTER_KEYS = ['status', 'spam', 'from', 'to', 'q', 'sort', 'order'];

export function parseListQuery(raw: Raw, statuses: readonly string[]): ListQuery {
  refuseUnknown(raw, [...FILTER_KEYS, 'limit', 'cursor']);
  const limitText = single(raw, 'limit');
  const limit = limitText === undefined ? DEFAULT_PAGE_SIZE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid(`"limit" must be an integer from 1 to ${MAX_PAGE_SIZE}.`);
  const cursor = single(raw, 'cursor');
  return { filter: parseFilter(raw, statuses), sort: parseSort(raw, 'desc'), limit, cursor: cursor === undefined || cursor === '' ? null : cursor };
}

/** Exports read oldest first by default, the order a spreadsheet of a log is read in. */
export function parseExportQuery(raw: Raw, statuses: readonly string[]): ExportQuery {
  refuseUnknown(raw, [...FILTER_KEYS, 'format', 'bom']);
  const format = single(raw, 'format') ?? 'csv';
  if (format !== 'csv' && format !== 'jsonl') throw invalid('"format" must be csv or jsonl.');
  const bom = single(raw, 'bom') ?? 'false';
  if (bom !== 'true' && bom !== 'false') throw invalid('"bom" must be true or false.');
  return { filter: parseFilter(raw, statuses), sort: parseSort(raw, 'asc'), format, bom: bom === 'true' };
}
