/** Liquid output and tags, closed or not (an unclosed one is Liquid's syntax error, reported by the compiler). */
export const LIQUID = /\{\{[\s\S]*?(?:\}\}|$)|\{%[\s\S]*?(?:%\}|$)/g;
const REF = /\bref\.([A-Za-z_][A-Za-z0-9_]*)|\bref\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/g;

/** The `ref.*` names the Liquid parts of `text` use (`{{ ref.ticket }}`, `{{ ref['sys_id'] }}`), once each. */
export function liquidRefs(text: string): string[] {
  const liquid = (text.match(LIQUID) ?? []).join(' ');
  return [...new Set([...liquid.matchAll(REF)].map((match) => match[1] ?? match[2] ?? match[3] ?? ''))];
}
