// A bounded memo of a pure function of a string: the KB's answer path reads the same signatures,
// entry errors and titles lookup after lookup, and the brief counts the same lines' tokens. The
// oldest key goes first when it is full (a Map keeps insertion order).

/** `f`, remembered for the last `max` keys it was called with. Callers never change what it returns. */
export function remembered<T>(f: (key: string) => T, max: number): (key: string) => T {
  const m = new Map<string, T>();
  return (key) => {
    let v = m.get(key);
    if (v === undefined) {
      v = f(key);
      if (m.size >= max) m.delete(m.keys().next().value!);
      m.set(key, v);
    }
    return v;
  };
}
