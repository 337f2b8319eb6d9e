import type { BuildOptions } from 'esbuild';

export const HOSTED_LANGUAGES: readonly string[];
export function hostedBundleName(language: string, phone: boolean): string;
export function hostedBundleOptions(language: string, phone: boolean): BuildOptions & { write: false };
export function formStylesHash(build: typeof import('esbuild').build): Promise<string>;
