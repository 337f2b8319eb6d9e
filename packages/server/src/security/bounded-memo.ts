/**
 * A memo of derived values (an HMAC, a hash) for inputs that repeat: a client's address, its
 * binding cookie, the CSRF token it sends with every submit. Bounded by forgetting everything when
 * full, so input an attacker chooses can cost a recomputation, never memory (issue #17).
 */
export interface BoundedMemo<V> {
  get(key: string): V | undefined;
  set(key: string, value: V): void;
}

export function createBoundedMemo<V>(max: number): BoundedMemo<V> {
  const entries = new Map<string, V>();
  return {
    get: (key) => entries.get(key),
    set(key, value) {
      if (entries.size >= max) entries.clear();
      entries.set(key, value);
    },
  };
}

/** `derive` once per distinct input, while the memo holds it. */
export function memoized<V>(max: number, derive: (input: string) => V): (input: string) => V {
  const memo = createBoundedMemo<V>(max);
  return (input) => {
    let value = memo.get(input);
    if (value === undefined) {
      value = derive(input);
      memo.set(input, value);
    }
    return value;
  };
}
