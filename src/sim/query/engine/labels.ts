/** The host of a referrer URL without `www.`, lower-case: how referrers are named in rows. */
export function referrerHost(url: string): string {
  const m = /^[a-z]+:\/\/([^/]+)/i.exec(url);
  return (m?.[1] ?? url).toLowerCase().replace(/^www\./, '');
}

/** A stored device type (`desktop`) as rows name it (`Desktop`); empty counts as desktop. */
export function deviceLabel(value: string | undefined): string {
  const v = value || 'desktop';
  return v.charAt(0).toUpperCase() + v.slice(1);
}
