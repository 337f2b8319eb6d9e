export * from './form-model.js';
export * from './error-catalogue.js';
export * from './field-registry.js';
export * from './rules-engine.js';
export { DEFAULT_FILE_COUNT, UPLOAD_ID, UPLOAD_TOKEN } from './fields/upload-ids.js';
export type { ManifestField, ManifestFieldFrontend, ManifestOption, SubmitBody, SubmitStatus, SubmitWarning } from './wire-types.js';
export { FILE_DND_WIRE_TYPE, WIRE_FIELD_TYPES, fieldTypeFromWire, wireFieldType } from './wire-field-types.js';
export { DEFAULT_MAX_RATING } from './fields/misc-field-types.js';
export { acceptForFileKinds } from './fields/file-accept.js';
