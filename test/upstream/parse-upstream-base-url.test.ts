import { describe, expect, it } from 'vitest';
import { parseUpstreamBaseUrl } from '../../src/upstream/parse-upstream-base-url.js';

describe('parseUpstreamBaseUrl', () => {
  it('takes https, and plain http for loopback only', () => {
    for (const ok of [
      'https://monitor.example.com',
      'https://monitor.example.com/api/',
      'http://127.0.0.1:8080',
      'http://localhost:1',
      'http://[::1]:9',
    ]) {
      expect(parseUpstreamBaseUrl(ok)).toBeInstanceOf(URL);
    }
    expect(parseUpstreamBaseUrl('http://monitor.example.com')).toMatch(
      /must be https:\/\/ \(plain http would send the API key/,
    );
    expect(parseUpstreamBaseUrl('http://10.0.0.5')).toMatch(/must be https/);
  });

  it('refuses a path with an empty segment, which could be read as another host', () => {
    expect(parseUpstreamBaseUrl('http://localhost:1//evil.example/x')).toBe(
      '--base-url: must not have an empty path segment (//)',
    );
  });

  it('refuses other schemes, credentials, queries, fragments and non-URLs', () => {
    expect(parseUpstreamBaseUrl('ftp://monitor.example.com')).toBe('--base-url: must be https:// (got ftp:)');
    expect(parseUpstreamBaseUrl('https://user:pw@monitor.example.com')).toBe('--base-url: must not carry credentials');
    expect(parseUpstreamBaseUrl('https://monitor.example.com/?key=1')).toBe(
      '--base-url: must not have a query or a fragment',
    );
    expect(parseUpstreamBaseUrl('https://monitor.example.com/#x')).toBe(
      '--base-url: must not have a query or a fragment',
    );
    expect(parseUpstreamBaseUrl('monitor.example.com')).toBe('--base-url: not a valid URL');
  });
});
