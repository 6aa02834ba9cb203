/** Node's codes for a certificate that does not verify (https://nodejs.org/api/tls.html#x509-certificate-error-codes). */
const UNTRUSTED = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
const EXPIRED = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID']);
/** The same, as the messages say them: nodemailer keeps the message of a failed STARTTLS upgrade, not its code. */
const UNTRUSTED_TEXT =
  /unable to verify the first certificate|unable to get (?:local )?issuer certificate|self[- ]signed certificate/i;
const NAME_TEXT = /does not match certificate's altnames|ERR_TLS_CERT_ALTNAME_INVALID/i;
const EXPIRED_TEXT = /certificate has expired|certificate is not yet valid/i;

/**
 * What is wrong with a server's certificate, read from a TLS failure, with what to do about it (`caOption`
 * names the target's option, `ca` or `smtp.ca`). An untrusted issuer and a name mismatch are configuration
 * (ours or the server's): retrying cannot fix them, so targets dead-letter at once. An expired certificate is
 * renewed at the server, so that one is retried.
 */
export function certificateProblem(
  error: unknown,
  caOption: string,
): { readonly lasting: boolean; readonly hint: string } | null {
  const record = typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const codes = [record['code'], record['originalCode'], (record['cause'] as { code?: unknown } | undefined)?.code];
  const message = typeof record['message'] === 'string' ? record['message'] : String(error);
  const has = (set: ReadonlySet<string>) => codes.some((code) => typeof code === 'string' && set.has(code));
  if (has(UNTRUSTED) || UNTRUSTED_TEXT.test(message)) {
    const hint =
      `the server's certificate is not signed by a trusted CA: for an in-house CA set ${caOption} ` +
      '(its PEM, or an absolute path to it); switchyard doctor shows the chain the server sends';
    return { lasting: true, hint };
  }
  if (codes.includes('ERR_TLS_CERT_ALTNAME_INVALID') || NAME_TEXT.test(message)) {
    return { lasting: true, hint: 'the certificate does not name the configured host: use a name it lists' };
  }
  if (has(EXPIRED) || EXPIRED_TEXT.test(message)) {
    return { lasting: false, hint: "the server's certificate is outside its validity: it must be renewed there" };
  }
  return null;
}
