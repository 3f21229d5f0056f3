// Unit tests: jest with Next's SWC transform (next/jest), jsdom, @testing-library/react.
// Site tests live in test/ (the flasher's in test/flasher/, except its node:test protocol suite).
import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: import.meta.dirname });

export default createJestConfig({
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/test/**/*.test.{ts,tsx}'],
  // test/flasher/protocol/ holds the flasher's node:test suites (run by `site: flasher unit`).
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/flasher/protocol/'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    '^@content/(.*)$': '<rootDir>/../content/$1',
  },
});
