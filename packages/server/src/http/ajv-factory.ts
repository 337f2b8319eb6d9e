/** One place that builds ajv instances, so every schema is compiled with the same formats. */
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a `default` export; under NodeNext the default import is the
// module object, so unwrap it once here instead of at every call site.
const addFormats = ((formatsModule as unknown as { default?: typeof formatsModule }).default ??
  formatsModule) as unknown as (ajv: Ajv) => Ajv;

export function createAjv(options: Options = {}): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, ...options });
  addFormats(ajv);
  return ajv;
}

/**
 * An ajv for JSON Schema 2020-12, the dialect of OpenAPI 3.1: the OpenAPI strict check compiles
 * the documented route schemas with it, so what it accepts is what the document promises.
 */
export function createAjv2020(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  addFormats(ajv as unknown as Ajv);
  return ajv;
}
