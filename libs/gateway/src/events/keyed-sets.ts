/**
 * Adds `value` to the set under `key` (made on first use) and returns the function that takes it
 * out again, dropping the set once empty: the bookkeeping of listeners keyed by call or channel.
 */
export function addToKeyedSet<TValue>(
  map: Map<string, Set<TValue>>,
  key: string,
  value: TValue,
): () => void {
  let set = map.get(key);
  if (set === undefined) {
    set = new Set();
    map.set(key, set);
  }
  set.add(value);
  return () => {
    set.delete(value);
    if (set.size === 0 && map.get(key) === set) map.delete(key);
  };
}
