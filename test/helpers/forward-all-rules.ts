/** Rules that send every event to one HTTP target, `tickets`, at `url` (with extra target options, if any). */
export function forwardAllRules(url: string, options = ''): string {
  return `targets:\n  tickets: { type: http, url: "${url}"${options === '' ? '' : `, ${options}`} }\nroutes:\n  - { name: all, to: [tickets] }\n`;
}
