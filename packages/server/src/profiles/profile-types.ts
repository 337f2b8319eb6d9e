/**
 * The types a profile's modules share (contract §9): its config entry, its typed properties and
 * what a context provider sees. Declared below the registry, the properties and the context,
 * and importing none of them, so they do not import each other in a circle (issue #31 item 15).
 */
import type { Config } from '../config/config-schema.js';

export type ProfileConfig = Config['headless']['profiles'][string];

export type PropertyValue = string | number | boolean;
export type PropertyValues = Readonly<Record<string, PropertyValue>>;

/** What a context provider and a template see. */
export interface ProfileRequestContext {
  readonly profile: string;
  readonly form: string;
  readonly properties: PropertyValues;
  readonly user: Readonly<Record<string, unknown>> | null;
  readonly token: { readonly subject: string; readonly prefill: Readonly<Record<string, string>> } | null;
}

type Decision = boolean | Promise<boolean>;
type FieldValues = Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>>;

/** The module a profile's `contextProvider` names; every export is optional. */
export interface ContextProvider {
  canAccessManifest?(context: ProfileRequestContext): Decision;
  canSubmit?(context: ProfileRequestContext): Decision;
  defaultValues?(context: ProfileRequestContext): FieldValues;
  hiddenFields?(context: ProfileRequestContext): FieldValues;
  lockedFields?(context: ProfileRequestContext): FieldValues;
}
