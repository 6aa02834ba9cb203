import type { LookupFunction } from 'node:net';
import { classifySmtpError } from '../../delivery/classify-smtp-error.js';
import { certificateProblem } from '../../delivery/certificate-problem.js';
import { redactDetail } from '../../delivery/redact-detail.js';
import { smtpSecrets } from '../../delivery/targets/smtp-secrets.js';
import type { EmailTargetSpec } from '../../rules/rules.js';
import type { DoctorCheck } from './doctor-check.js';
import { probeSmtp, type SmtpProbe } from './probe-smtp.js';

/** A name with a dot and a letter: what an EHLO should say (RFC 5321 §4.1.4); `[127.0.0.1]` is not one. */
const DOMAIN_NAME = /^(?=.*[A-Za-z])[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\.?$/;

/**
 * An `email` target's server, checked the way the target connects (probeSmtp). Says whether the session was
 * under TLS, and warns when a login went without it or the EHLO name is not a domain name; shows the
 * certificate chain received, also when it did not verify (read again without checking it, never logging in).
 */
export async function checkEmailTarget(
  spec: EmailTargetSpec,
  secrets: readonly string[],
  lookup?: LookupFunction,
): Promise<DoctorCheck> {
  const item = `target ${spec.name}`;
  const timeoutMs = spec.policy.timeoutMs;
  const smtp = spec.smtp;
  const endpoint = `${smtp.secure ? 'smtps' : 'smtp'}://${smtp.host}:${smtp.port}`;
  const masked = [...secrets, ...smtpSecrets(smtp)];
  try {
    const probe = await probeSmtp(spec, { timeoutMs, lookup });
    const warnings = warningsOf(spec, probe);
    const session = `EHLO as ${probe.name}, ${probe.tls ? 'TLS' : 'no TLS'}, ${loginText(spec, probe)}`;
    const detail = [
      `email ${endpoint}: SMTP server verified (${session}); no mail sent`,
      ...warnings,
      ...chainLines(probe.chain),
    ];
    return { verdict: warnings.length > 0 ? 'WARN' : 'OK', item, detail: detail.join('\n') };
  } catch (error) {
    const outcome = classifySmtpError(error, masked);
    const reason = outcome.kind === 'delivered' ? 'failed' : outcome.error;
    const chain = certificateProblem(error, 'smtp.ca') === null ? [] : await unverifiedChain(spec, timeoutMs, lookup);
    const detail = [`email ${endpoint}: ${redactDetail(reason, masked)}`, ...chainLines(chain)];
    return { verdict: 'FAIL', item, detail: detail.join('\n') };
  }
}

function loginText(spec: EmailTargetSpec, probe: SmtpProbe): string {
  if (spec.smtp.auth === null) return 'no login configured';
  if (!probe.loggedIn) return 'login configured but the server offers no AUTH';
  return probe.tls ? 'logged in over TLS' : 'logged in WITHOUT TLS';
}

function warningsOf(spec: EmailTargetSpec, probe: SmtpProbe): string[] {
  const warnings: string[] = [];
  if (probe.loggedIn && !probe.tls) {
    warnings.push('the password crossed the network in cleartext (allowed by allow_insecure_auth: true)');
  }
  if (!DOMAIN_NAME.test(probe.name)) {
    warnings.push(
      `the EHLO name ${probe.name} is not a domain name (this host has no fully qualified name), ` +
        'which mail servers and spam filters penalise: set smtp.name to this host’s DNS name',
    );
  }
  return warnings;
}

function chainLines(chain: readonly string[]): string[] {
  return chain.length === 0 ? [] : ['certificate chain:', ...chain.map((cert, n) => `${n}: ${cert}`)];
}

/** The chain a server sends when it did not verify, read over a session that logs in to nothing. */
async function unverifiedChain(spec: EmailTargetSpec, timeoutMs: number, lookup?: LookupFunction): Promise<string[]> {
  try {
    const probe = await probeSmtp(spec, { timeoutMs, lookup, verify: false });
    return [...probe.chain];
  } catch {
    return [];
  }
}
