/**
 * The `hosted` config section (issue #36): where the hosted pages live and the site-wide theme.
 * A form opts in with `settings.hostedPage: true`; its own `settings.hostedTheme` wins over this.
 */
import { Type } from '@sinclair/typebox';
import { HostedThemeSchema } from './hosted-theme.js';

export const HostedSection = Type.Object(
  {
    prefix: Type.String({
      pattern: '^(/[a-z0-9][a-z0-9_-]*)+$',
      default: '/f',
      description: 'Path under which each form with settings.hostedPage has its page: `<prefix>/<handle>`.',
    }),
    theme: Type.Object(HostedThemeSchema.properties, {
      additionalProperties: false,
      default: {},
      description: "Site-wide design tokens of the hosted pages; a form's settings.hostedTheme wins. Colours must pass WCAG AA contrast.",
    }),
  },
  { additionalProperties: false, default: {} },
);
