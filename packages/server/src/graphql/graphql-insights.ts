/**
 * `svcInsights(handle, from, to, site)` (issue #38): a form's insights over GraphQL, the same
 * figures as the admin API's, for bearer tokens with the `insights:read` (or
 * `insights:<handle>:read`) scope. The public never reads them: for anyone else the form is not
 * found, exactly as an unknown one; with insights off the answer is null.
 */
import { GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLFieldConfigMap } from 'graphql';
import { SvcError } from '@svc/core';
import { parseInsightsQuery } from '../insights/insights-query.js';
import type { SvcGraphqlContext } from './graphql-context.js';

const count = { type: new GraphQLNonNull(GraphQLInt) };

const InsightsPage = new GraphQLObjectType({
  name: 'SvcInsightsPage',
  description: 'Drop-off at one page.',
  fields: {
    index: count,
    reached: { ...count, description: 'Journeys that came to this page' },
    left: { ...count, description: 'Journeys whose last page this is, without a submission' },
    medianSeconds: { type: GraphQLInt, description: 'Median time on the page of journeys that went on (a bucket floor); null when none did' },
  },
});

const InsightsMessage = new GraphQLObjectType({
  name: 'SvcInsightsMessage',
  fields: { key: { type: new GraphQLNonNull(GraphQLString), description: 'The message catalogue key, `custom` or `other`' }, count },
});

const InsightsField = new GraphQLObjectType({
  name: 'SvcInsightsField',
  description: 'Validation errors of one field.',
  fields: { handle: { type: new GraphQLNonNull(GraphQLString) }, errors: count, messages: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(InsightsMessage))) } },
});

const InsightsDrafts = new GraphQLObjectType({ name: 'SvcInsightsDrafts', fields: { saves: count, resumes: count } });

export const InsightsType = new GraphQLObjectType({
  name: 'SvcInsights',
  description: "A form's drop-off and field friction over a period: counts only, nothing that identifies a person.",
  fields: {
    form: { type: new GraphQLNonNull(GraphQLString) },
    from: { type: new GraphQLNonNull(GraphQLString) },
    to: { type: new GraphQLNonNull(GraphQLString) },
    site: { type: GraphQLString },
    views: count,
    starts: count,
    completions: count,
    completionRate: { type: new GraphQLNonNull(GraphQLFloat) },
    pages: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(InsightsPage))) },
    fields: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(InsightsField))) },
    drafts: { type: new GraphQLNonNull(InsightsDrafts) },
  },
});

interface InsightsArgs {
  readonly handle: string;
  readonly from?: string | null;
  readonly to?: string | null;
  readonly site?: string | null;
}

export function insightsQueryFields(): GraphQLFieldConfigMap<unknown, SvcGraphqlContext> {
  return {
    svcInsights: {
      type: InsightsType,
      description: "A form's insights (views, starts, completions, drop-off per page, field errors, drafts); needs a token with the insights:read scope.",
      args: {
        handle: { type: new GraphQLNonNull(GraphQLString) },
        from: { type: GraphQLString, description: 'ISO date or date-time; default 30 days before `to`' },
        to: { type: GraphQLString, description: 'ISO date (its whole day) or date-time, exclusive; default now' },
        site: { type: GraphQLString, description: 'A site handle; all sites when absent' },
      },
      resolve: async (_r, args: InsightsArgs, ctx) => {
        const { app, principal } = ctx.svc;
        const form = app.forms.get(args.handle);
        if (!form || !principal.canReadInsights(args.handle)) throw new SvcError('FORM_NOT_FOUND', `Form "${args.handle.slice(0, 100)}" not found.`);
        if (!app.insights?.enabled) return null;
        const raw = { ...(args.from ? { from: args.from } : {}), ...(args.to ? { to: args.to } : {}), ...(args.site ? { site: args.site } : {}) };
        return app.insights.report(form, parseInsightsQuery(raw, app.sites, app.submit.now()));
      },
    },
  };
}
