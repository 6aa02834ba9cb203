/** Three http targets (no secrets needed) for rules written in tests. */
export const TARGETS_YAML = `targets:
  a: { type: http, url: "https://a.example/hook" }
  b: { type: http, url: "https://b.example/hook" }
  c: { type: http, url: "https://c.example/hook" }
`;
