/** One line of `switchyard doctor`: a verdict on one item and the reason, never a secret. */
export interface DoctorCheck {
  /** OK: works; WARN: works, but look at it; FAIL: the daemon cannot do this part of its job. */
  readonly verdict: 'OK' | 'WARN' | 'FAIL';
  /** `config`, `rules`, `journal`, `target <name>`, `upstream`. */
  readonly item: string;
  /** Why; may span lines. */
  readonly detail: string;
}
