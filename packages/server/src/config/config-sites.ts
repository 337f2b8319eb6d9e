/**
 * The checks of `sites` the schema cannot express (issue #34): one default, unique handles, and
 * language tags and time zones that Intl accepts, so a typo is a boot error and not a site that
 * silently speaks English.
 */

interface RawSite {
  readonly handle?: unknown;
  readonly language?: unknown;
  readonly timezone?: unknown;
  readonly default?: unknown;
}

/** Whether Intl takes `tag` as a BCP 47 language tag. */
function isLanguageTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export function siteProblems(sites: unknown): string[] {
  if (!Array.isArray(sites) || sites.length === 0) return [];
  const problems: string[] = [];
  const seen = new Map<string, number>();
  (sites as readonly RawSite[]).forEach((site, index) => {
    if (typeof site?.handle === 'string') {
      const first = seen.get(site.handle);
      if (first !== undefined) problems.push(`sites.${index}.handle: "${site.handle}" is also the handle of sites.${first}`);
      else seen.set(site.handle, index);
    }
    if (typeof site?.language === 'string' && !isLanguageTag(site.language)) {
      problems.push(`sites.${index}.language: "${site.language}" is not a BCP 47 language tag (de-DE, ar, fr-CA)`);
    }
    if (typeof site?.timezone === 'string' && !isTimeZone(site.timezone)) {
      problems.push(`sites.${index}.timezone: "${site.timezone}" is not an IANA time zone (Europe/Berlin)`);
    }
  });
  const defaults = (sites as readonly RawSite[]).filter((site) => site?.default === true).length;
  if (defaults !== 1) problems.push(`sites: exactly one site must have default: true (${defaults} have)`);
  return problems;
}
