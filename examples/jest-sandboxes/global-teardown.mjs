// Stops the server global-setup.mjs started.
export default async function stopSimulator() {
  const child = globalThis.__analyticsSim;
  if (!child || child.exitCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
