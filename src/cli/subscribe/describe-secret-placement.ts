export interface SecretPlacement {
  /** The config file, as shown to the operator. */
  readonly config: string;
  readonly source: string;
  /** The config's `${VAR}` for the source's current secret; null when the secret is written in the file. */
  readonly variable: string | null;
  /** Where the secret came from: generated here (it is shown), or the variable given with --secret-env. */
  readonly secret: { readonly generated: string } | { readonly fromEnv: string };
}

/**
 * What the operator must do with the secret when it was not written to an env file. A generated secret is
 * shown here, once, on a `VAR=value` line of its own (so it can be piped into an env file); a secret given
 * through --secret-env is not shown again.
 */
export function describeSecretPlacement(place: SecretPlacement): string {
  const restart = 'and restart the daemon (it reads its config and environment at start)';
  const entry = `sources.${place.source}.secrets[0]`;
  const example = `${place.source.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_WEBHOOK_SECRET`;
  if ('fromEnv' in place.secret) {
    const from = place.secret.fromEnv;
    if (place.variable === from)
      return `The daemon reads this secret from \${${from}}: restart it if the value is new.\n`;
    if (place.variable !== null) {
      return `Set ${place.variable} in the daemon's environment to the value of ${from} ${restart}.\n`;
    }
    return `Put the value of ${from} as ${entry} in ${place.config} ${restart}.\n`;
  }
  const secret = place.secret.generated;
  if (place.variable !== null) {
    return (
      `The webhook secret, shown this once. ${place.config} reads the "${place.source}" source's secret from ` +
      `\${${place.variable}}: put this line in the daemon's environment (its env file: node --env-file, ` +
      `systemd EnvironmentFile=, docker --env-file) ${restart}.\n${place.variable}=${secret}\n`
    );
  }
  return (
    `The webhook secret, shown this once. ${entry} in ${place.config} is not a \${VAR} reference: put the ` +
    `secret there (better: secrets: ['\${${example}}'] and ${example}=<secret> in the daemon's environment) ` +
    `${restart}.\n${secret}\n`
  );
}
