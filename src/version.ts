/** The simulator's version, as package.json says (a test keeps the two equal). */
export const VERSION = '0.1.0';
