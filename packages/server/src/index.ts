/** @svc/server: build the service in-process, or embed its GraphQL schema in a host's. */
export { buildApp, type BuildAppOptions, type SvcApp } from './app.js';
export { loadConfig, ConfigError, type LoadConfigOptions } from './config/config-loader.js';
export type { Config } from './config/config-schema.js';
export { createSvcEmbedding, type SvcEmbedding } from './graphql/graphql-embed.js';
export type { HostTypes } from './graphql/graphql-submission-types.js';
export { buildSvcSchema } from './graphql/graphql-schema.js';
export { loadFormDefinitions, formatDefinitionProblems, FormDefinitionError } from './forms/definition-loader.js';
