/**
 * A Map that refuses changes once built: `Object.freeze` does not stop `Map.prototype.set`, and the rules
 * handed to ingest must not be changed behind its back.
 */
export class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]>) {
    super();
    for (const [key, value] of entries) Map.prototype.set.call(this, key, value);
    Object.freeze(this);
  }

  override set(): this {
    throw new TypeError('this map is read-only');
  }

  override delete(): boolean {
    throw new TypeError('this map is read-only');
  }

  override clear(): void {
    throw new TypeError('this map is read-only');
  }
}
