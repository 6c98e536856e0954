/**
 * A plausible User-Agent header for a visitor's browser, OS and device, as the tracker stores it:
 * the same inputs always give the same text.
 */
export function userAgentOf(browser: string, browserVersion: string, os: string, osVersion: string, device: string): string {
  const platform = platformOf(os, osVersion, device);
  const webkit = 'AppleWebKit/537.36 (KHTML, like Gecko)';
  switch (browser) {
    case 'Firefox':
      return `Mozilla/5.0 (${platform}; rv:${browserVersion}) Gecko/20100101 Firefox/${browserVersion}`;
    case 'Safari':
      return `Mozilla/5.0 (${platform}) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/${browserVersion}${device === 'desktop' ? '' : ' Mobile/15E148'} Safari/605.1.15`;
    case 'Edge':
      return `Mozilla/5.0 (${platform}) ${webkit} Chrome/${browserVersion} Safari/537.36 Edg/${browserVersion}`;
    case 'Samsung Internet':
      return `Mozilla/5.0 (${platform}) ${webkit} SamsungBrowser/${browserVersion} Chrome/130.0.0.0 Mobile Safari/537.36`;
    case 'Opera':
      return `Mozilla/5.0 (${platform}) ${webkit} Chrome/135.0.0.0 Safari/537.36 OPR/${browserVersion}`;
    default:
      return `Mozilla/5.0 (${platform}) ${webkit} Chrome/${browserVersion} ${device === 'desktop' ? '' : 'Mobile '}Safari/537.36`;
  }
}

function platformOf(os: string, version: string, device: string): string {
  const dotted = version.replace(/\./g, '_');
  switch (os) {
    case 'Windows':
      return 'Windows NT 10.0; Win64; x64';
    case 'macOS':
      return `Macintosh; Intel Mac OS X ${dotted || '10_15_7'}`;
    case 'iOS':
      return `${device === 'tablet' ? 'iPad' : 'iPhone'}; CPU ${device === 'tablet' ? 'OS' : 'iPhone OS'} ${dotted || '18_4'} like Mac OS X`;
    case 'Android':
      return `Linux; Android ${version || '14'}; K`;
    default:
      return 'X11; Linux x86_64';
  }
}
