/**
 * Rules with one Redmine lifecycle target `redmine` at `url` that every incident event goes to: the create
 * captures the issue id from Redmine's answer (the whole issue, description included), updates add notes,
 * the resolve closes it (status 5).
 */
export function redmineRules(url: string): string {
  return `
targets:
  redmine:
    type: http
    retry: { initial_delay: 50ms, max_attempts: 2 }
    requests:
      create:
        url: ${url}/issues.json
        body: { issue: { project_id: 1, subject: "{{ data.title }}", description: "{{ data.description | default: '' }}" } }
        capture: { issue: body.issue.id }
      update:
        method: PUT
        url: "${url}/issues/{{ ref.issue }}.json"
        body: { issue: { notes: "{{ data.title }}" } }
      resolve:
        method: PUT
        url: "${url}/issues/{{ ref.issue }}.json"
        raw_body: '{"issue": {"status_id": 5, "notes": "resolved"}}'
        content_type: application/json
routes:
  - { name: incidents, match: { event: "incident.*" }, to: [redmine] }
`;
}
