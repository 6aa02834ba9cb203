import type { LookupFunction } from 'node:net';
import { classifyNetworkError } from '../../delivery/classify-network-error.js';
import { classifySmtpError } from '../../delivery/classify-smtp-error.js';
import { redactDetail } from '../../delivery/redact-detail.js';
import { smtpSecrets } from '../../delivery/targets/smtp-secrets.js';
import type { EmailTargetSpec, TargetSpec } from '../../rules/rules.js';
import type { DoctorCheck } from './doctor-check.js';
import { probeConnection } from './probe-connection.js';
import { probeSmtp } from './probe-smtp.js';

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
  if (spec.type === 'email') {
    const endpoint = smtpEndpoint(spec);
    const masked = [...secrets, ...smtpSecrets(spec.smtp)];
    try {
      await probeSmtp(spec, { timeoutMs, lookup });
      const detail = `email ${endpoint}: SMTP server verified (connect, EHLO, TLS and login as configured); no mail sent`;
      return { verdict: 'OK', item, detail };
    } catch (error) {
      const outcome = classifySmtpError(error, masked);
      const reason = outcome.kind === 'delivered' ? 'failed' : outcome.error;
      return { verdict: 'FAIL', item, detail: `email ${endpoint}: ${redactDetail(reason, masked)}` };
    }
  }
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
  try {
    const established = await probeConnection(url, { allowLinkLocal: spec.allowLinkLocal, timeoutMs, lookup });
    const detail = `${spec.type} ${url.origin}: ${established}; no request sent`;
    if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
      return { verdict: 'WARN', item, detail: `${detail}; plain http: events cross the network unencrypted` };
    }
    return { verdict: 'OK', item, detail };
  } catch (error) {
    const outcome = classifyNetworkError(error);
    const reason = outcome.kind === 'delivered' ? 'failed' : outcome.error;
    return { verdict: 'FAIL', item, detail: `${spec.type} ${url.origin}: ${redactDetail(reason, secrets)}` };
  }
}

/** `smtp://host:port` without credentials. */
function smtpEndpoint(spec: EmailTargetSpec): string {
  const smtp = spec.smtp;
  if (!('url' in smtp)) return `${smtp.secure ? 'smtps' : 'smtp'}://${smtp.host}:${smtp.port}`;
  if (!URL.canParse(smtp.url)) return 'smtp (URL not valid)';
  const url = new URL(smtp.url);
  return `${url.protocol}//${url.host}`;
}
