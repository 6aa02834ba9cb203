/** The attachment content type of an Adaptive Card. */
export const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/** Version 1.4 renders in every current Teams client (desktop, web, mobile); the schema URL lets editors check a card. */
export const CARD_HEADER = {
  $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
  type: 'AdaptiveCard',
  version: '1.4',
} as const;

export interface AdaptiveCard {
  readonly type: 'AdaptiveCard';
  readonly body: readonly unknown[];
  readonly [property: string]: unknown;
}

/** What a Teams Workflows webhook takes: a message whose attachments are Adaptive Cards. */
export interface TeamsPayload {
  readonly type: 'message';
  readonly attachments: readonly {
    readonly contentType: string;
    readonly contentUrl: null;
    readonly content: unknown;
  }[];
}

/**
 * One card as the payload a "When a Teams webhook request is received" workflow expects: its ready-made
 * templates post each attachment's `content` to the channel
 * (https://learn.microsoft.com/en-us/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook).
 * A card without `$schema` or `version` gets ours.
 */
export function teamsPayload(card: Readonly<Record<string, unknown>>): TeamsPayload {
  return {
    type: 'message',
    attachments: [{ contentType: ADAPTIVE_CARD, contentUrl: null, content: { ...CARD_HEADER, ...card } }],
  };
}
