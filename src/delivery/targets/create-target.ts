import type { CreateTarget } from '../target.js';
import { createHttpTarget } from './http-target.js';
import { createPagerdutyTarget } from './pagerduty-target.js';
import { createSlackTarget } from './slack-target.js';
import { createTeamsTarget } from './teams-target.js';

/**
 * The one place that knows which module serves which `type:`. The modules with heavy clients (nodemailer,
 * @slack/web-api) are loaded when a target of theirs is first built, so a daemon without one does not hold them.
 */
export const createTarget: CreateTarget = async (spec, deps) => {
  switch (spec.type) {
    case 'slack':
      return spec.webhookUrl === null
        ? (await import('./slack-api-target.js')).createSlackApiTarget(spec, deps)
        : createSlackTarget(spec, deps);
    case 'teams':
      return createTeamsTarget(spec, deps);
    case 'email':
      return (await import('./email-target.js')).createEmailTarget(spec, deps);
    case 'http':
      return createHttpTarget(spec, deps);
    case 'pagerduty':
      return createPagerdutyTarget(spec, deps);
  }
};
