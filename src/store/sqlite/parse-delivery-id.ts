/** `dlv_42` → 42: SQLite deliveries are rowids shown with a prefix (migration 1); anything else → undefined. */
export function parseDeliveryId(id: string): number | undefined {
  const match = /^dlv_([1-9]\d{0,15})$/.exec(id);
  if (match === null) return undefined;
  const rowId = Number(match[1]);
  return Number.isSafeInteger(rowId) ? rowId : undefined;
}
