import { useEffect, useRef, useState } from 'preact/hooks';
import type { Problem, Routing, RulesCheck } from '../api/api-types.js';
import { ErrorNotice } from '../components/error-notice.js';
import { ProblemList } from '../components/problem-list.js';
import { RoutingTable } from '../components/routing-table.js';
import { useLoad } from '../components/use-load.js';
import { useRouter } from '../router/use-router.js';
import type { PageProps } from './page-props.js';
import { offsetOf, sampleEvent } from './sample-event.js';
import { revealBidiControls } from '../../../src/templates/reveal-bidi-controls.js';

interface Outcome {
  readonly check: RulesCheck | null;
  readonly routing: Routing | null;
  readonly under: string;
}

/**
 * Where would this event go, under the rules in force or under an edited copy of them? "Check" sends the copy to
 * POST /rules/check (which never touches the file in force) or, with no copy, the event to POST /route-test.
 */
export function RuleTesterPage(props: PageProps) {
  const rules = useLoad(() => props.client.rules(), [props.client]);
  const recent = useLoad(() => props.client.events({ limit: 20 }), [props.client]);
  const [rulesText, setRulesText] = useState('');
  const [eventText, setEventText] = useState(() => sampleEvent(new Date()));
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const editor = useRef<HTMLTextAreaElement>(null);
  const offersText = typeof rules.data?.text === 'string';
  useEffect(() => {
    if (typeof rules.data?.text === 'string') setRulesText(rules.data.text);
  }, [rules.data]);
  // From an event's page ("Test in the rule tester"): that event, else the sample.
  const query = useRouter().query;
  const [picked, setPicked] = useState(query.get('event') ?? '');
  useEffect(() => {
    if (picked !== '') void pick(picked);
  }, []);

  const pick = async (id: string) => {
    if (id === '') return setEventText(sampleEvent(new Date()));
    try {
      const event = await props.client.event(id);
      setEventText(JSON.stringify(event.body, null, 2));
    } catch (failure) {
      setError(failure);
    }
  };
  const check = async (submitted: Event) => {
    submitted.preventDefault();
    let event: unknown;
    try {
      event = JSON.parse(eventText) as unknown;
    } catch (failure) {
      setError(new Error(`the event is not JSON: ${(failure as Error).message}`));
      return;
    }
    setBusy(true);
    try {
      if (rulesText.trim() === '') {
        const routing = await props.client.routeTest(event);
        setOutcome({ check: null, routing, under: `the rules in force (${routing.rules?.version ?? '?'})` });
      } else {
        const result = await props.client.checkRules(rulesText, event);
        setOutcome({
          check: result,
          routing: result.routing,
          under: `the edited rules (${result.version ?? 'invalid'})`,
        });
      }
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const goTo = (problem: Problem) => {
    const area = editor.current;
    if (area === null) return;
    const at = offsetOf(area.value, problem.line, problem.column);
    area.focus();
    area.setSelectionRange(at, at);
  };
  return (
    <>
      <h1>Rule tester</h1>
      <p>Nothing here changes the rules file or the rules in force.</p>
      <form class="tester" onSubmit={check}>
        <div class="field">
          <label for="tester-rules">Rules (YAML)</label>
          <textarea
            id="tester-rules"
            ref={editor}
            rows={18}
            spellcheck={false}
            value={rulesText}
            onInput={(event) => setRulesText(event.currentTarget.value)}
            aria-describedby="tester-rules-help"
          />
          <p id="tester-rules-help" class="help">
            {offersText
              ? 'A copy of the rules in force: edit it and Check to see the problems and the routing.'
              : `The API does not show the rules file's text (rules in force: ${rules.data?.version ?? '…'}). Leave this empty to test under the rules in force, or paste a rules file to check it.`}
          </p>
        </div>
        <div class="field">
          <label for="tester-pick">Pick a recent event</label>
          <select
            id="tester-pick"
            value={picked}
            onChange={(event) => {
              setPicked(event.currentTarget.value);
              void pick(event.currentTarget.value);
            }}
          >
            <option value="">Sample event</option>
            {picked !== '' && !(recent.data?.items ?? []).some((item) => item.id === picked) && (
              <option value={picked}>{picked}</option>
            )}
            {(recent.data?.items ?? []).map((item) => (
              <option key={item.id} value={item.id}>
                {revealBidiControls(`${item.kind} · ${item.title ?? item.id}`)}
              </option>
            ))}
          </select>
          <label for="tester-event">Event envelope (JSON)</label>
          <textarea
            id="tester-event"
            rows={12}
            spellcheck={false}
            value={eventText}
            onInput={(event) => setEventText(event.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            Check
          </button>
        </div>
      </form>
      <ErrorNotice error={error} />
      {outcome !== null && (
        <section aria-labelledby="tester-result-heading" class="card" aria-live="polite">
          <h2 id="tester-result-heading">Result under {outcome.under}</h2>
          {outcome.check !== null && (
            <>
              <p class={outcome.check.valid ? 'notice notice-ok' : 'notice notice-error'}>
                {outcome.check.valid ? 'The rules are valid.' : 'The rules are invalid.'}
              </p>
              <ProblemList problems={outcome.check.problems} onPick={goTo} />
            </>
          )}
          {outcome.routing !== null && <RoutingTable routing={outcome.routing} caption="Routes" />}
        </section>
      )}
    </>
  );
}
