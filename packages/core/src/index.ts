export * from './form-model.js';
export * from './error-catalogue.js';
export * from './field-registry.js';
export * from './rules-engine.js';
