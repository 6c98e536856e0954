/** The media type of an RFC 9727 API catalog. */
export const API_CATALOG_TYPE = 'application/linkset+json;profile="https://www.rfc-editor.org/info/rfc9727"; charset=utf-8';

/** The RFC 9727 linkset that points agents at the API, its description, its docs and its status. */
export function buildApiCatalog(baseUrl: string): Record<string, unknown> {
  return {
    linkset: [
      {
        anchor: `${baseUrl}/.well-known/api-catalog`,
        item: [
          { href: baseUrl, title: 'analytics-sim REST API (Query API and management)' },
          { href: `${baseUrl}/track`, title: 'analytics-sim event ingestion API' },
        ],
        'service-desc': [
          { href: `${baseUrl}/openapi.json`, type: 'application/vnd.oai.openapi+json;version=3.1', title: 'analytics-sim OpenAPI specification' },
        ],
        'service-doc': [{ href: `${baseUrl}/auth.md`, type: 'text/markdown', title: 'analytics-sim authentication' }],
        status: [{ href: `${baseUrl}/health`, type: 'application/json', title: 'analytics-sim health' }],
      },
    ],
  };
}
