import { describe, expect, it } from 'vitest';
import { taskFocus } from '../../../src/core/retrieval/task-focus.js';

describe('taskFocus: does a task describe a failure?', () => {
  it.each([
    'docs: add base contributing guide',
    'Updating CHANGELOG',
    'Add a dark mode toggle to the navbar',
    'Bump version to 2.0',
    'v3.1.0',
    'docs: fix typo in README',
    'Fix broken link in docs',
    'Fix a typo in the readme (#553)',
    'fixed: typographic error in help',
    'Error Handling Documentation (#1130)',
    'Update README examples to check for errors',
    'start version 8.0.0a2',
    'chore(release): 5.0.0',
    'Add a --json output mode to the list command',
  ])('%j describes no failure of code', (task) => {
    expect(taskFocus(task).describesFailure).toBe(false);
  });

  it.each([
    'Fix crash when the request body is empty',
    'date parsing breaks for users in UTC+13',
    'Socket listeners leak on every retry',
    'Avoid panic when sending errors after receiver shutdown',
    'Disable jemalloc on Android (fixes #636)',
    'the process slowly runs out of file handles',
    'Fix docs generation perf issue by limiting processes to machine CPU count',
    'docs build crashes on Windows',
    'Handle IO errors based on type',
    'Return an empty list rather than raising KeyError',
    'Preserve the AttributeError raised by a property',
  ])('%j describes a failure', (task) => {
    expect(taskFocus(task).describesFailure).toBe(true);
  });

  it('names the failure words it found, apart from the repair verb', () => {
    const focus = taskFocus('Fix socket listener memory leak');
    expect(focus.repair).toBe(true);
    expect(focus.failureWords).toEqual(['leak']);
  });
});
