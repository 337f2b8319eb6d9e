/**
 * The site a payer's landing page is drawn for (issue #34 item 4). The return URL may name it with
 * `?site=`, as a classic form's action does; otherwise the site the checkpoint was made on decides,
 * read from the payment's submission once it is stored, or from the sealed checkpoint while the
 * payment is still pending or refused. Neither: the default site. A payer who has paid is never
 * refused a page over a site name, so an unknown `?site=` is passed over, not an error.
 */
import type { FastifyRequest } from 'fastify';
import { siteOfQuery, type Site, type SiteRegistry } from '../sites/site-registry.js';
import type { PaymentContext } from './payment-context.js';
import { openCheckpoint } from './payment-checkpoint.js';
import { findCheckpoint, type PaymentRow } from './payment-repository.js';

/** The handle of the site `payment` was checkpointed on, or null when none is recorded. */
export async function recordedSiteOf(ctx: Pick<PaymentContext, 'db' | 'sealKey'>, payment: PaymentRow): Promise<string | null> {
  if (payment.submissionId !== null) {
    const row = await ctx.db.selectFrom('svc_submissions').select('site').where('id', '=', payment.submissionId).executeTakeFirst();
    return row?.site ?? null;
  }
  const stored = await findCheckpoint(ctx.db, payment.intentId);
  const checkpoint = stored ? openCheckpoint(ctx, payment.intentId, stored.sealed) : null;
  return checkpoint?.prepared.site ?? null;
}

function known(sites: SiteRegistry, handle: string | null | undefined): Site | undefined {
  return handle ? sites.list.find((site) => site.handle === handle) : undefined;
}

/**
 * `?site=` when it names a configured site, else the payment's recorded site, else the default.
 *
 * @example
 * const site = await callbackSite(ctx, sites, request, outcome.payment); // the `de` site
 */
export async function callbackSite(ctx: Pick<PaymentContext, 'db' | 'sealKey'>, sites: SiteRegistry, request: FastifyRequest, payment: PaymentRow | null): Promise<Site> {
  const named = known(sites, siteOfQuery(request.query));
  if (named) return named;
  const recorded = payment ? known(sites, await recordedSiteOf(ctx, payment)) : undefined;
  return recorded ?? sites.defaultSite;
}
