export * from './form-model.js';
export * from './error-catalogue.js';
export * from './field-registry.js';
export * from './rules-engine.js';
export { DEFAULT_FILE_COUNT, UPLOAD_ID, UPLOAD_TOKEN } from './fields/upload-ids.js';
export type { ManifestField, ManifestFieldFrontend, ManifestOption, SubmitBody, SubmitStateFile, SubmitStatus, SubmitWarning } from './wire-types.js';
export { FILE_DND_WIRE_TYPE, WIRE_FIELD_TYPES, fieldTypeFromWire, wireFieldType } from './wire-field-types.js';
export { DEFAULT_MAX_RATING } from './fields/misc-field-types.js';
export { acceptForFileKinds } from './fields/file-accept.js';
export { INTERFACE_FIELD_PROPERTIES, MANIFEST_TOP_LEVEL_PROPERTIES } from './interface-field-properties.js';
export { computePaymentAmount, currencyFactor, toMinorUnits, DEFAULT_MAX_AMOUNT, DEFAULT_MIN_AMOUNT, type PaymentAmount } from './payment-amount.js';
export {
  SUPPORTED_LANGUAGES,
  MESSAGE_CATALOGUES,
  canonicalTag,
  errorMessage,
  formatMessage,
  resolveLanguage,
  textDirection,
  type MessageCatalogue,
  type MessageKey,
  type SupportedLanguage,
} from './i18n/message-format.js';
export { formatLocaleNumber, parseLocaleNumber } from './i18n/locale-numbers.js';
export { PAGE_MESSAGE_CATALOGUES, formatPageMessage, type PageMessageCatalogue, type PageMessageKey } from './i18n/page-message-format.js';
