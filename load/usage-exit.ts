/**
 * The usage error of a load command (`npm run load`, `load:k6`, `faults`): a function that
 * prints the message and the command's usage to stderr and exits with status 2.
 */
export function usageExit(usage: string): (message: string) => never {
  return (message) => {
    process.stderr.write(`${message}\n\n${usage}`);
    process.exit(2);
  };
}
