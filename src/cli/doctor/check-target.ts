import type { LookupFunction } from 'node:net';
import { classifyNetworkError } from '../../delivery/classify-network-error.js';
import { redactDetail } from '../../delivery/redact-detail.js';
import { readTrustedCa } from '../../delivery/targets/read-trusted-ca.js';
import type { TargetSpec } from '../../rules/rules.js';
import { checkEmailTarget } from './check-email-target.js';
import type { DoctorCheck } from './doctor-check.js';
import { probeConnection } from './probe-connection.js';

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Whether a target can be reached, without delivering anything (see probeConnection and probeSmtp). Shows the
 * endpoint as scheme, host and port only: a Slack webhook's path and a Teams webhook's query are its secret,
 * a URL may carry a token. `secrets` (the rules' substituted values) are masked in every reason.
 */
export async function checkTarget(
  spec: TargetSpec,
  secrets: readonly string[],
  lookup?: LookupFunction,
): Promise<DoctorCheck> {
  const item = `target ${spec.name}`;
  const timeoutMs = spec.policy.timeoutMs;
  if (spec.type === 'email') return checkEmailTarget(spec, secrets, lookup);
  // A target with `requests:` is probed at its create request's host; a templated URL's host is as written.
  const text =
    spec.type === 'http'
      ? (spec.requests?.create.url ?? spec.url)
      : spec.type === 'pagerduty'
        ? spec.baseUrl
        : spec.type === 'slack'
          ? (spec.webhookUrl ?? spec.baseUrl)
          : spec.webhookUrl;
  if (!URL.canParse(text)) return { verdict: 'FAIL', item, detail: `${spec.type}: the URL is not a valid URL` };
  const url = new URL(text);
  const caOption = spec.type === 'http' ? 'ca' : undefined;
  try {
    const ca = spec.type === 'http' ? readTrustedCa(spec.ca) : undefined;
    const established = await probeConnection(url, { allowLinkLocal: spec.allowLinkLocal, timeoutMs, lookup, ca });
    const detail = `${spec.type} ${url.origin}: ${established}; no request sent`;
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
      return { verdict: 'WARN', item, detail: `${detail}; plain http: events cross the network unencrypted` };
    }
    return { verdict: 'OK', item, detail };
  } catch (error) {
    const outcome = classifyNetworkError(error, caOption);
    const reason = outcome.kind === 'delivered' ? 'failed' : outcome.error;
    return { verdict: 'FAIL', item, detail: `${spec.type} ${url.origin}: ${redactDetail(reason, secrets)}` };
  }
}
