/**
 * The typed properties of a profile request (contract §9): `properties[name]=value` in a manifest
 * query, a `properties` object in a submit body. Undeclared, missing required or ill-typed
 * properties, and raw identifier parameters, are refused with PROFILE_PROPERTY_INVALID.
 */
import { SvcError } from '@svc/core';
import type { ProfileConfig, PropertyValue, PropertyValues } from './profile-types.js';

export type { PropertyValue, PropertyValues } from './profile-types.js';

/** Parameters that would let a caller name records directly instead of through the profile. */
const RAW_IDENTIFIERS = new Set(['id', 'uid', 'elementId', 'submissionId', 'userId']);
const QUERY_PROPERTY = /^properties\[([^\]]*)\]$/;
const INTEGER = /^-?\d{1,15}$/;

function invalid(message: string): SvcError {
  return new SvcError('PROFILE_PROPERTY_INVALID', message);
}

function typed(name: string, type: 'string' | 'integer' | 'boolean', raw: unknown): PropertyValue {
  if (type === 'string') {
    if (typeof raw === 'string' && raw.length <= 500) return raw;
    if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
    throw invalid(`Property "${name}" must be text of at most 500 characters.`);
  }
  if (type === 'integer') {
    if (typeof raw === 'number' && Number.isSafeInteger(raw)) return raw;
    if (typeof raw === 'string' && INTEGER.test(raw) && Number.isSafeInteger(Number(raw))) return Number(raw);
    throw invalid(`Property "${name}" must be an integer.`);
  }
  if (raw === true || raw === 'true' || raw === '1') return true;
  if (raw === false || raw === 'false' || raw === '0') return false;
  throw invalid(`Property "${name}" must be true or false.`);
}

/** Checks raw name/value pairs against the profile's declarations. */
export function checkProperties(profile: ProfileConfig, entries: readonly (readonly [string, unknown])[]): PropertyValues {
  const out: Record<string, PropertyValue> = {};
  const seen = new Set<string>();
  for (const [name, raw] of entries) {
    if (RAW_IDENTIFIERS.has(name)) throw invalid(`"${name}" cannot be passed to a profile; declare a property instead.`);
    const declared = Object.hasOwn(profile.properties, name) ? profile.properties[name] : undefined;
    if (!declared) throw invalid(`Property "${name.slice(0, 64)}" is not declared by this profile.`);
    if (seen.has(name)) throw invalid(`Property "${name}" is given twice.`);
    seen.add(name);
    out[name] = typed(name, declared.type, Array.isArray(raw) ? raw[0] : raw);
  }
  for (const [name, declared] of Object.entries(profile.properties)) {
    if (declared.required && !seen.has(name)) throw invalid(`Property "${name}" is required.`);
  }
  return out;
}

/**
 * The property entries of a manifest query, unchecked (a signed link may still fill some in); any
 * other parameter but `token` and `site` (issue #34, the site read) is a raw identifier or a typo.
 */
export function queryPropertyEntries(query: Readonly<Record<string, unknown>>): [string, unknown][] {
  const entries: [string, unknown][] = [];
  for (const [key, value] of Object.entries(query)) {
    const match = QUERY_PROPERTY.exec(key);
    if (match) entries.push([match[1] as string, value]);
    else if (key === 'properties' && value !== null && typeof value === 'object' && !Array.isArray(value)) entries.push(...Object.entries(value));
    else if (RAW_IDENTIFIERS.has(key)) throw invalid(`"${key}" cannot be passed to a profile; declare a property instead.`);
    else if (key !== 'token' && key !== 'site') throw invalid(`Unknown parameter "${key.slice(0, 64)}"; pass properties as properties[name]=value.`);
  }
  return entries;
}
