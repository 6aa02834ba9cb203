/**
 * Makes a rendered value safe for one header line (or one table cell of the CLI): every run of control
 * characters (CR, LF, tab, NUL, ...) and whitespace becomes one space, so event data cannot start a new
 * header (`\r\nBcc: ...`), fold one, or drive a terminal. nodemailer also strips line breaks from header
 * values; this keeps the subject readable and bounded instead of relying on that. RFC 5322 §2.1.1 asks for
 * lines under 78 characters; nodemailer folds longer ones, the bound here only stops a huge field from
 * becoming a huge subject.
 */
export function flattenHeaderText(value: string, maxLength = 200): string {
  // eslint-disable-next-line no-control-regex
  const flat = value.replace(/[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length > maxLength ? `${flat.slice(0, maxLength - 3)}...` : flat;
}
