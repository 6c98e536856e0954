/** `YYYY-MM-DD HH:MM:SS.mmm` of an epoch-ms instant in UTC (ClickHouse's DateTime64(3) text form). */
export function formatDateTime64(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}
