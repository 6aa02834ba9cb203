import { SwitchyardError } from '../../switchyard-error.js';
import { checkApiKey } from '../../upstream/check-api-key.js';
import { UPSTREAM_ENV } from '../../upstream/upstream-env.js';
import { readCredential } from '../../upstream/read-credential.js';
import type { DoctorCheck } from './doctor-check.js';

/** The API key against `GET {base}/v1/agents`: 200 OK, 403 WARN (known, but not allowed to list agents), else FAIL. */
export async function checkUpstream(
  baseUrl: URL | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<DoctorCheck> {
  const item = 'upstream';
  if (baseUrl === undefined) {
    return { verdict: 'WARN', item, detail: `not checked: give --base-url to check ${UPSTREAM_ENV.apiKey}` };
  }
  const apiKey = readCredential(env, UPSTREAM_ENV.apiKey);
  if (apiKey instanceof Error) return { verdict: 'FAIL', item, detail: `${baseUrl.origin}: ${apiKey.message}` };
  try {
    const { status, message } = await checkApiKey(baseUrl, apiKey);
    const said = message === '' ? '' : `: ${message}`;
    const where = `${baseUrl.origin}: GET /v1/agents answered ${status}`;
    if (status === 200) return { verdict: 'OK', item, detail: `${where}: ${UPSTREAM_ENV.apiKey} accepted` };
    if (status === 401) return { verdict: 'FAIL', item, detail: `${where}: ${UPSTREAM_ENV.apiKey} refused${said}` };
    if (status === 403) {
      return { verdict: 'WARN', item, detail: `${where}: the key is known but may not list agents${said}` };
    }
    return { verdict: 'FAIL', item, detail: `${where}: unexpected${said}` };
  } catch (error) {
    if (!(error instanceof SwitchyardError)) throw error;
    return { verdict: 'FAIL', item, detail: error.message };
  }
}
