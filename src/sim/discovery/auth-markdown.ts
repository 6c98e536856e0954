import { SCOPES } from '../../contract/scopes.js';

const SCOPE_MEANING: Record<(typeof SCOPES)[number], string> = {
  'read:data': 'Query analytics and list websites: POST /v1/query, POST /v1/query/compile, GET /v1/query/websites',
  'track:events': 'Send custom events: POST /track',
  'read:links': 'Read short links (link analytics via POST /v1/query need read:data on a global key)',
  'write:links': 'Create, update and delete short links',
  'read:monitors': 'Read uptime monitors and run the uptime query types',
  'write:monitors': 'Create, update, pause, resume and delete uptime monitors',
  'read:status_pages': 'Read status pages, incidents and monitor visibility',
  'write:status_pages': 'Manage status pages, incidents and monitor visibility',
  'manage:websites': 'Create, update and delete websites',
  'manage:flags': 'Manage feature flags and targeting rules',
  'manage:config': 'Organization settings',
};

/** `GET /auth.md`: how to get, send and revoke a credential for this simulator. */
export function buildAuthMarkdown(baseUrl: string): string {
  return `# auth.md

analytics-sim simulates the analytics API locally. It has no OAuth: callers use scoped API keys
(server side) or a dashboard session cookie (browsers).

## Get a key

- Fixture keys for every case (global, website-restricted, per scope, expired, revoked, with a
  quota) are listed with their secrets by \`GET ${baseUrl}/__sim/fixtures\`.
- Create your own with \`POST ${baseUrl}/__sim/keys\` (name, scopes, websites, expiry, quota).
  The secret (\`dbdy_\` followed by 48 letters and digits) is shown once, at creation and at
  rotation; afterwards only its first characters (\`start\`).

## Use the credential

\`\`\`sh
curl -s -H "x-api-key: $KEY" ${baseUrl}/v1/query/websites
curl -s -H "Authorization: Bearer $KEY" ${baseUrl}/v1/query/websites
\`\`\`

Either header works on every protected route; \`x-api-key\` wins when both are sent, and an API
key wins over a session cookie. A browser signs in with \`POST ${baseUrl}/__sim/sessions\`
(\`{ "userId": "user_alice" }\`) and sends \`credentials: 'include'\` from an allowed origin.

## Errors

JSON bodies \`{ "success": false, "error", "code", "requestId", "hint"? }\`:

- 401 \`AUTH_REQUIRED\`: no credential, or a malformed, unknown, disabled, expired or revoked
  one (the \`hint\` says which; the \`WWW-Authenticate\` header is set).
- 403 \`FORBIDDEN\`: the key lacks the scope the operation needs.
- 403 \`ACCESS_DENIED\`: the resource is outside what the key reaches (another organization, or
  a website the key is not restricted to).
- 429 \`RATE_LIMITED\`: a limit refused the request; wait \`Retry-After\` seconds.

## Revocation

\`POST ${baseUrl}/__sim/keys/{id}/revoke\` refuses the key at once; \`POST …/rotate\` issues a new
secret and refuses the old one at once; \`DELETE ${baseUrl}/__sim/keys/{id}\` removes it. Every
change is in \`GET ${baseUrl}/__sim/audit\`.

## API key scopes

| scope | allows |
|---|---|
${SCOPES.map((scope) => `| \`${scope}\` | ${SCOPE_MEANING[scope]} |`).join('\n')}
`;
}
