import { describe, expect, it } from 'vitest';
import { classifyNetworkError } from '../../src/delivery/classify-network-error.js';
import { addressRefused } from '../../src/delivery/http/address-refused.js';
import { SwitchyardError } from '../../src/switchyard-error.js';

function socketError(code: string, message = `connect ${code} 10.1.2.3:443`): Error {
  return Object.assign(new Error(message), { code });
}

describe('classifyNetworkError', () => {
  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE'])(
    '%s is retried, described without the address',
    (code) => {
      const outcome = classifyNetworkError(socketError(code));
      expect(outcome).toMatchObject({ kind: 'retry' });
      expect(outcome.kind === 'retry' && outcome.error).toContain(code);
      expect(outcome.kind === 'retry' && outcome.error).not.toContain('10.1.2.3');
    },
  );

  it('our timeout and a shutdown abort are retried', () => {
    expect(classifyNetworkError(new SwitchyardError('attempt_timeout', 'no answer within 10 ms'))).toEqual({
      kind: 'retry',
      error: 'no answer within 10 ms',
    });
    expect(classifyNetworkError(new SwitchyardError('attempt_aborted', 'cancelled'))).toMatchObject({ kind: 'retry' });
  });

  it('TLS certificate problems are retried (the receiver can fix its certificate)', () => {
    expect(classifyNetworkError(socketError('CERT_HAS_EXPIRED', 'certificate has expired'))).toMatchObject({
      kind: 'retry',
      error: 'CERT_HAS_EXPIRED: certificate has expired',
    });
  });

  it('the link-local refusal is permanent and says how to allow it', () => {
    const outcome = classifyNetworkError(addressRefused('169.254.169.254', 'metadata.internal'));
    expect(outcome).toEqual({
      kind: 'permanent',
      error:
        'refused to connect to 169.254.169.254 (resolved from metadata.internal): link-local or cloud-metadata ' +
        'address; set allow_link_local: true on the target if this is intended',
    });
  });

  it('an invalid URL or an unbuildable request is permanent', () => {
    expect(classifyNetworkError(socketError('ERR_INVALID_URL', 'Invalid URL'))).toEqual({
      kind: 'permanent',
      error: 'the target URL is not a valid URL',
    });
    expect(classifyNetworkError(socketError('ERR_INVALID_CHAR', 'Invalid character in header'))).toMatchObject({
      kind: 'permanent',
    });
  });

  it('anything else is retried', () => {
    expect(classifyNetworkError('weird')).toEqual({ kind: 'retry', error: 'weird' });
  });

  it('for a target with a ca option, an untrusted or misnamed certificate is permanent and says to set it', () => {
    const untrusted = socketError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate');
    const misnamed = socketError('ERR_TLS_CERT_ALTNAME_INVALID', "Hostname/IP does not match certificate's altnames");
    const expired = socketError('CERT_HAS_EXPIRED', 'certificate has expired');
    expect(classifyNetworkError(untrusted, 'ca')).toMatchObject({
      kind: 'permanent',
      error: expect.stringContaining('set ca'),
    });
    expect(classifyNetworkError(misnamed, 'ca')).toMatchObject({ kind: 'permanent' });
    expect(classifyNetworkError(expired, 'ca')).toMatchObject({
      kind: 'retry',
      error: expect.stringContaining('renewed'),
    });
    // Targets without such an option (Slack, Teams, PagerDuty) keep retrying, as before.
    expect(classifyNetworkError(untrusted)).toMatchObject({ kind: 'retry' });
  });
});
