/** One place that builds ajv instances, so every schema is compiled with the same formats. */
import { Ajv, type Options } from 'ajv';
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
