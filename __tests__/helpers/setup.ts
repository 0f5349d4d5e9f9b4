/**
 * Runs before every test file: no test may reach the network, and every test ends with no
 * pending HTTP mock (a mock that was set up but never called is a failed expectation).
 */
import nock from 'nock';
import { afterEach, beforeAll, expect } from 'vitest';

beforeAll(() => {
  nock.disableNetConnect();
  // local servers started by the tests themselves (App, API, PostgreSQL go through pg, not http)
  nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
});

afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending, 'every HTTP mock is used').toEqual([]);
});
