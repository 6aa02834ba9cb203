/** `1 event`, `500 events`: the count as digests and their default messages say it. */
export function eventCount(count: number): string {
  return `${count} ${count === 1 ? 'event' : 'events'}`;
}
