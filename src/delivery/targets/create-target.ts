import type { CreateTarget } from '../target.js';
import { createEmailTarget } from './email-target.js';
import { createHttpTarget } from './http-target.js';
import { createPagerdutyTarget } from './pagerduty-target.js';
import { createSlackTarget } from './slack-target.js';
import { createTeamsTarget } from './teams-target.js';

/** The one place that knows which module serves which `type:`. */
export const createTarget: CreateTarget = (spec, deps) => {
  switch (spec.type) {
    case 'slack':
      return createSlackTarget(spec, deps);
    case 'teams':
      return createTeamsTarget(spec, deps);
    case 'email':
      return createEmailTarget(spec, deps);
    case 'http':
      return createHttpTarget(spec, deps);
    case 'pagerduty':
      return createPagerdutyTarget(spec, deps);
  }
};
