/** The host of a referrer URL as ClickHouse's `domain()` gives it (`www.` kept, lower-case); '' for none. */
export function referrerDomain(referrer: string): string {
  if (referrer === '') return '';
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(referrer);
  return (m?.[1] ?? '').toLowerCase();
}
