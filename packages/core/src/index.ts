export * from './form-model.js';
export * from './error-catalogue.js';
export * from './field-registry.js';
export * from './rules-engine.js';
export { DEFAULT_FILE_COUNT, UPLOAD_ID } from './fields/upload-ids.js';
export type { ManifestField, SubmitBody, SubmitStatus } from './wire-types.js';
