import type { SourceConfig } from '../config/config.js';

/** The source of the events Switchyard raises itself (`switchyard.*`): no secrets, never watched. */
export const SWITCHYARD_SOURCE: SourceConfig = Object.freeze({
  name: 'switchyard',
  secrets: Object.freeze([]),
  maxEventAgeMs: null,
  expectEventsWithinMs: null,
});
