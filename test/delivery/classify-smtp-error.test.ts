import { describe, expect, it } from 'vitest';
import { classifySmtpError } from '../../src/delivery/classify-smtp-error.js';
import { SwitchyardError } from '../../src/switchyard-error.js';

/** An error shaped as nodemailer's SMTP connection makes them. */
function smtpError(code: string, message: string, responseCode?: number, originalCode?: string): Error {
  return Object.assign(new Error(message), { code, responseCode, originalCode });
}

describe('classifySmtpError', () => {
  it.each([421, 450, 451, 452, 454])('retries on reply %i', (reply) => {
    const outcome = classifySmtpError(smtpError('EENVELOPE', `Failed: ${reply} try later`, reply), []);
    expect(outcome).toMatchObject({ kind: 'retry', status: reply });
  });

  it.each([
    [550, 'EENVELOPE'],
    [553, 'EENVELOPE'],
    [554, 'EMESSAGE'],
    [535, 'EAUTH'],
    [530, 'EENVELOPE'],
    [502, 'ETLS'],
    // Unlike nodemailer's isPermanentResponseCode: RFC 5321 §4.2.1 says not to repeat a 5yz request as sent.
    [503, 'EENVELOPE'],
    [503, 'EAUTH'],
  ])('is permanent on reply %i (%s)', (reply, code) => {
    const outcome = classifySmtpError(smtpError(code, `Failed: ${reply} no`, reply), []);
    expect(outcome).toMatchObject({ kind: 'permanent', status: reply });
  });

  it.each([
    ['ECONNECTION', 'Connection closed unexpectedly'],
    ['ETIMEDOUT', 'Greeting never received'],
    ['ESOCKET', 'connect ECONNREFUSED 127.0.0.1:25', 'ECONNREFUSED'],
    ['EDNS', 'getaddrinfo ENOTFOUND smtp.example.com', 'ENOTFOUND'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:25'],
    ['ETLS', 'Error initiating TLS - certificate has expired'],
    ['ETLS', 'Error initiating TLS - socket hang up'],
    ['EPROTOCOL', 'Invalid greeting'],
    ['EABORT', 'Message sending aborted'],
  ])('retries on %s without a reply code', (code, message, original?: string) => {
    expect(classifySmtpError(smtpError(code, message, undefined, original), [])).toMatchObject({ kind: 'retry' });
  });

  it.each([
    ['self-signed certificate', 'smtp.ca'],
    ['unable to verify the first certificate', 'smtp.ca'],
    ['unable to get local issuer certificate', 'smtp.ca'],
    ["Hostname/IP does not match certificate's altnames: Host: mail.test. is not in the cert's altnames", 'name'],
  ])('is permanent when the certificate does not verify (%s), saying what to do', (reason, hint) => {
    const outcome = classifySmtpError(smtpError('ETLS', `Error initiating TLS - ${reason}`), []);
    expect(outcome).toMatchObject({ kind: 'permanent', error: expect.stringContaining(hint) });
  });

  it('retries on anything it does not recognise', () => {
    expect(classifySmtpError(new Error('something odd'), [])).toEqual({ kind: 'retry', error: 'something odd' });
    expect(classifySmtpError('a string', [])).toEqual({ kind: 'retry', error: 'a string' });
  });

  it.each(['EAUTH', 'ENOAUTH', 'ECONFIG', 'EENVELOPE', 'EMESSAGE', 'EMAXRECIPIENTS'])(
    'is permanent on %s without a reply code (configuration or message)',
    (code) => {
      expect(classifySmtpError(smtpError(code, 'Missing credentials for "PLAIN"'), [])).toMatchObject({
        kind: 'permanent',
      });
    },
  );

  it("is permanent on the address guard's refusal", () => {
    const refusal = new SwitchyardError('address_refused', 'refused to connect to 169.254.169.254');
    expect(classifySmtpError(refusal, [])).toMatchObject({ kind: 'permanent' });
  });

  it('names the codes and the server reply in the excerpt', () => {
    const error = smtpError('ESOCKET', 'connect ECONNREFUSED 127.0.0.1:25', undefined, 'ECONNREFUSED');
    expect(classifySmtpError(error, [])).toEqual({
      kind: 'retry',
      error: 'ESOCKET/ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:25',
    });
  });

  it('masks the credentials, their base64 forms and the SMTP URL, and flattens line breaks', () => {
    const pass = 'hunter2-secret';
    const plain = Buffer.from(`\u0000mailer\u0000${pass}`).toString('base64');
    const message =
      `Invalid login: 535-5.7.8 user mailer pass ${pass}\r\n535 5.7.8 got ${plain} and ` +
      `${Buffer.from(pass).toString('base64')} via smtp://mailer:${pass}@smtp.example.com:587`;
    const outcome = classifySmtpError(smtpError('EAUTH', message, 535), [
      'mailer',
      pass,
      `\u0000mailer\u0000${pass}`,
      `smtp://mailer:${pass}@smtp.example.com:587`,
    ]);

    expect(outcome.kind).toBe('permanent');
    const excerpt = outcome.kind === 'permanent' ? outcome.error : '';
    expect(excerpt).not.toMatch(/hunter2|mailer|aHVudGVy|\r|\n/);
    expect(excerpt).toContain('[redacted]');
    expect(excerpt).toContain('535 5.7.8');
  });

  it('rewords the pool\'s "maximum number of retries" message, since it made none', () => {
    const error = smtpError('ECONNECTION', 'Reached maximum number of retries after connection was closed');
    expect(classifySmtpError(error, [])).toEqual({
      kind: 'retry',
      error: 'ECONNECTION: connection closed by the server before the message was accepted',
    });
  });
});
