/**
 * Target options as written in the rules file, after `${VAR}` expansion. The schema has checked them, but
 * the compiler also runs on parts it rejected (to report every problem at once), so nothing here is trusted:
 * readers check types, or skip what `isBroken` says the schema refused.
 */
export interface DeliveryOptionsYaml {
  readonly retry?: {
    readonly max_attempts?: unknown;
    readonly max_age?: unknown;
    readonly initial_delay?: unknown;
    readonly max_delay?: unknown;
  };
  readonly rate_limit?: { readonly per_second?: unknown; readonly burst?: unknown };
  readonly concurrency?: unknown;
  readonly circuit_breaker?: { readonly failures?: unknown; readonly cooldown?: unknown };
  readonly timeout?: unknown;
  readonly allow_link_local?: unknown;
  readonly follow?: unknown;
}

export interface SlackTargetYaml extends DeliveryOptionsYaml {
  readonly webhook_url?: unknown;
  readonly token?: unknown;
  readonly base_url?: unknown;
  readonly key?: unknown;
  readonly channel?: unknown;
  readonly username?: unknown;
  readonly icon_emoji?: unknown;
  readonly message?: Readonly<Record<string, unknown>>;
}

export interface TeamsTargetYaml extends DeliveryOptionsYaml {
  readonly webhook_url?: unknown;
  readonly message?: Readonly<Record<string, unknown>>;
}

export interface SmtpYaml {
  readonly url?: unknown;
  readonly host?: unknown;
  readonly port?: unknown;
  readonly secure?: unknown;
  readonly require_tls?: unknown;
  readonly allow_insecure_auth?: unknown;
  readonly name?: unknown;
  readonly ca?: unknown;
  readonly auth?: { readonly user?: unknown; readonly pass?: unknown };
}

export interface EmailTargetYaml extends DeliveryOptionsYaml {
  readonly smtp?: SmtpYaml;
  readonly on_partial_refusal?: unknown;
  readonly from?: unknown;
  readonly to?: unknown;
  readonly cc?: unknown;
  readonly subject?: unknown;
  readonly text?: unknown;
  readonly html?: unknown;
}

export interface HttpTargetYaml extends DeliveryOptionsYaml {
  readonly url?: unknown;
  readonly method?: unknown;
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly auth?: { readonly bearer?: unknown; readonly username?: unknown; readonly password?: unknown };
  readonly body?: unknown;
  readonly raw_body?: unknown;
  readonly content_type?: unknown;
  readonly sign?: { readonly secret?: unknown };
  readonly key?: unknown;
  readonly requests?: Readonly<Record<string, unknown>>;
  readonly ca?: unknown;
}

export interface PagerdutyTargetYaml extends DeliveryOptionsYaml {
  readonly routing_key?: unknown;
  readonly key?: unknown;
  readonly base_url?: unknown;
  readonly severity_map?: unknown;
}

/** Options read defensively: the value when it has the expected type, else undefined. */
export const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
export const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
export const asBoolean = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
export const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
