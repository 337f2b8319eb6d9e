/**
 * The sites feature room's one entry (DESIGN "Feature rooms"): the composition root builds the
 * registry here and hands it to the routes that serve or take a form per site.
 */
import type { Config } from '../config/config-schema.js';
import { createSiteRegistry, type SiteRegistry } from './site-registry.js';

export type { Site, SiteRegistry } from './site-registry.js';
export { siteOfQuery } from './site-registry.js';
export { localizeError } from './site-language.js';

export function createSiteServices(config: Pick<Config, 'sites' | 'server'>): SiteRegistry {
  return createSiteRegistry(config);
}
