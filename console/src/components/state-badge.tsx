/** A delivery state or circuit state as a coloured label (the word is always there: colour is never the only cue). */
export function StateBadge(props: { readonly state: string | null }) {
  const state = props.state ?? 'unknown';
  return <span class={`badge badge-${state.replace(/[^a-z-]/g, '')}`}>{state}</span>;
}
