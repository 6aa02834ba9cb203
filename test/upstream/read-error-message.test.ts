import { describe, expect, it } from 'vitest';
import { readErrorMessage } from '../../src/upstream/read-error-message.js';

describe('readErrorMessage', () => {
  it.each([
    ['{"error":{"code":"conflict","message":"exists"}}', 'conflict: exists'],
    ['{"error":{"message":"exists"}}', 'exists'],
    ['{"error":"invalid_grant","error_description":"expired"}', 'invalid_grant: expired'],
    ['{"error":"invalid_client"}', 'invalid_client'],
    ['{"message":"bad url"}', 'bad url'],
    ['{"type":"about:blank","title":"Unprocessable","detail":"url not public"}', 'url not public'],
    ['{"errors":[{"message":"events: unknown"}]}', 'events: unknown'],
    ['  Service Unavailable\n', 'Service Unavailable'],
    ['{"id":1}', ''],
    ['', ''],
  ])('%s', (text, expected) => {
    expect(readErrorMessage(text)).toBe(expected);
  });
});
