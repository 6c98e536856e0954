/**
 * Jest for an ESM-only package (analytics-sim ships ES modules only): jest loads the test
 * files and the package as native ES modules when node runs with --experimental-vm-modules,
 * and `transform: {}` keeps babel-jest from rewriting them. Run:
 *
 *   NODE_OPTIONS=--experimental-vm-modules npx jest
 */
export default {
  testEnvironment: 'node',
  transform: {},
};
