/**
 * Multi-page state (contract §4): AES-256-GCM under a key derived from the server secret and the
 * form uid, so a token is useless for another form, can't be read or altered by the client, and
 * any instance can open it. Lifetime 30 minutes.
 */
import { deriveKey, openJson, sealJson } from '../security/token-crypto.js';

export const STATE_TOKEN_TTL_MS = 30 * 60_000;

export interface MultiPageState {
  readonly formUid: string;
  readonly pageIndex: number;
  readonly pageHistory: readonly number[];
  /** Raw values of earlier pages as they were posted (re-normalised on every step). */
  readonly values: Readonly<Record<string, unknown>>;
  readonly issuedAt: number;
  /**
   * The journey so far (issue #38), carried inside the sealed token instead of being kept about
   * anyone on the server: whether it has started, the pages it has reached, and since when it has
   * been on this one. Absent in tokens sealed before insights existed.
   */
  readonly journey?: JourneyMarks;
}

export interface JourneyMarks {
  /** The first successful `next` or the first `validate` has happened (a loaded draft counts). */
  readonly started: boolean;
  /** Page indexes reached, each once. */
  readonly seen: readonly number[];
  /** When the journey came to its current page (ms since the epoch). */
  readonly pageSince: number;
}

export interface StateTokens {
  seal(state: MultiPageState): string;
  /** The state, or null when tampered, for another form, or older than `maxAgeMs` (default 30 minutes). */
  open(token: string, formUid: string, now: number, maxAgeMs?: number): MultiPageState | null;
}

function isState(value: unknown): value is MultiPageState {
  const v = value as MultiPageState;
  return (
    typeof v === 'object' && v !== null &&
    typeof v.formUid === 'string' && Number.isInteger(v.pageIndex) && v.pageIndex >= 0 &&
    Array.isArray(v.pageHistory) && v.pageHistory.every((n) => Number.isInteger(n)) &&
    typeof v.values === 'object' && v.values !== null && !Array.isArray(v.values) &&
    typeof v.issuedAt === 'number'
  );
}

export function createStateTokens(secret: string): StateTokens {
  const keys = new Map<string, Buffer>();
  const keyFor = (formUid: string) => {
    let key = keys.get(formUid);
    if (!key) {
      key = deriveKey(secret, 'state', formUid);
      keys.set(formUid, key);
    }
    return key;
  };
  return {
    seal: (state) => sealJson(keyFor(state.formUid), state, state.formUid),
    open(token, formUid, now, maxAgeMs = STATE_TOKEN_TTL_MS) {
      const state = openJson(keyFor(formUid), token, formUid);
      if (!isState(state) || state.formUid !== formUid) return null;
      if (now - state.issuedAt > maxAgeMs || state.issuedAt > now + 60_000) return null;
      return state;
    },
  };
}

/**
 * The journey marks a step's answer carries on (issue #38), from the marks it came with: started
 * by a `validate` or by a `next` that moved on, the page it is on added to those reached, and the
 * clock restarted when it changed page. A journey without marks (its first answer, or a token
 * sealed before insights) starts at `from` now.
 */
export function advanceJourney(previous: JourneyMarks | undefined, from: number, to: number, intent: string, now: number): JourneyMarks {
  const started = previous?.started === true || intent === 'validate' || (intent === 'next' && to !== from);
  const seen = previous?.seen ?? [from];
  return {
    started,
    seen: seen.includes(to) ? seen : [...seen, to],
    pageSince: previous && to === from ? previous.pageSince : now,
  };
}
