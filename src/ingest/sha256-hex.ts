import * as crypto from 'node:crypto';

/** The hex SHA-256 through a Hash object: every Node release has it. */
export const sha256HexByHashObject = (data: Buffer): string => crypto.createHash('sha256').update(data).digest('hex');

/**
 * The hex SHA-256 of a body, as the journal's dedupe lookup keys it. `crypto.hash` (Node 20.12 and later) does
 * it in one native call, about 0.4 µs against 0.8-1.2 for a Hash object per event; older Node 20 releases,
 * which `engines` still admits, have no such function and take the Hash object.
 */
export const sha256Hex: (data: Buffer) => string =
  typeof crypto.hash === 'function' ? (data) => crypto.hash('sha256', data, 'hex') : sha256HexByHashObject;
