/**
 * Blocked keywords, emails and IPs (issue #4), per form and site-wide. Compiled once per form
 * version; a hit is a spam reason like the honeypot's, so spam behaviour decides what happens.
 */
import type { BlockList } from 'node:net';
import type { Form, Values } from '@svc/core';
import { createIpList, ipListed } from './ip-ranges.js';

export type ListReason = 'blocked_keyword' | 'blocked_email' | 'blocked_ip';

export interface SiteSpamLists {
  readonly blockedKeywords: readonly string[];
  readonly blockedEmails: readonly string[];
  readonly blockedIps: readonly string[];
}

interface CompiledLists {
  readonly keywords: RegExp | null;
  readonly emails: RegExp | null;
  readonly ips: BlockList | null;
  readonly emailHandles: readonly string[];
}

/** One case-insensitive alternation; `*` matches anything, everything else literally. */
function patternOf(entries: readonly string[], anchored: boolean): RegExp | null {
  const parts = entries
    .map((e) => e.trim())
    .filter((e) => e !== '')
    .map((e) => e.split('*').map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*'));
  if (parts.length === 0) return null;
  const body = parts.join('|');
  return new RegExp(anchored ? `^(?:${body})$` : `(?:${body})`, 'iu');
}

function textsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, out);
}

export function createSpamLists(site: SiteSpamLists) {
  const cache = new WeakMap<Form, CompiledLists>();
  const compile = (form: Form): CompiledLists => {
    let lists = cache.get(form);
    if (!lists) {
      const { spam } = form.settings;
      const ips = [...site.blockedIps, ...spam.blockedIps];
      lists = {
        keywords: patternOf([...site.blockedKeywords, ...spam.blockedKeywords], false),
        emails: patternOf([...site.blockedEmails, ...spam.blockedEmails], true),
        ips: ips.length > 0 ? createIpList(ips) : null,
        emailHandles: form.fields.filter((f) => f.type === 'email').map((f) => f.handle as string),
      };
      cache.set(form, lists);
    }
    return lists;
  };

  return {
    /** The list reasons these normalised values and this client IP trigger. */
    check(form: Form, values: Values, ip: string | null): ListReason[] {
      const lists = compile(form);
      const reasons: ListReason[] = [];
      if (lists.keywords) {
        const texts: string[] = [];
        for (const value of Object.values(values)) textsOf(value, texts);
        if (texts.some((text) => lists.keywords?.test(text))) reasons.push('blocked_keyword');
      }
      if (lists.emails && lists.emailHandles.some((h) => typeof values[h] === 'string' && lists.emails?.test((values[h] as string).trim()))) {
        reasons.push('blocked_email');
      }
      if (lists.ips && ipListed(lists.ips, ip)) reasons.push('blocked_ip');
      return reasons;
    },
  };
}

export type SpamLists = ReturnType<typeof createSpamLists>;
