/**
 * The dashboard's small pages around the report: set-up instructions when OAuth is not
 * configured, a message page (signed out, not a member, an error) and the list of organizations.
 * Same shell and style as the report (./report-html.ts); none shows anything of a pool.
 */
import { escapeHtml } from './report-charts.js';
import { renderShell, type PageChrome } from './report-html.js';

function page(title: string, main: string, chrome: PageChrome): string {
  return renderShell(
    { title: `Memory Transfer — ${title}`, heading: 'Memory Transfer dashboard', subtitle: title, main },
    chrome,
  );
}

/** Shown at /dashboard when the App has no OAuth client id and secret: how to set it up, and nothing else. */
export function renderSetupPage(callbackUrl: string, chrome: PageChrome): string {
  return page(
    'Set up the dashboard',
    [
      '<h2>The dashboard is not set up</h2>',
      '<p>The dashboard shows the pool only to members of the organization, after they sign in with GitHub. It needs the OAuth credentials of this GitHub App; until they are set it shows nothing.</p>',
      '<ol>',
      "<li>Open the App's settings on GitHub (Settings → Developer settings → GitHub Apps → your App).</li>",
      `<li>Under <strong>Identifying and authorizing users</strong>, add the callback URL <code>${escapeHtml(callbackUrl)}</code>.</li>`,
      '<li>Under <strong>Permissions → Organization permissions</strong>, give <strong>Members</strong> read access (to check membership with the signed-in person’s token), and accept the new permission on the installation.</li>',
      '<li>Generate a client secret, then set <code>GITHUB_CLIENT_ID</code> and <code>GITHUB_CLIENT_SECRET</code> in the environment of <code>memory-transfer serve</code> and restart it.</li>',
      '</ol>',
      '<p>docs/dashboard.md explains each step.</p>',
    ].join('\n'),
    chrome,
  );
}

/** A short page with a heading, a sentence and an optional link. */
export function renderMessagePage(
  title: string,
  text: string,
  chrome: PageChrome,
  link?: { href: string; label: string },
): string {
  return page(
    title,
    `<h2>${escapeHtml(title)}</h2>\n<p>${escapeHtml(text)}</p>${link ? `\n<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`,
    chrome,
  );
}

/** The organizations whose pool the person may open. */
export function renderOrgListPage(orgs: string[], chrome: PageChrome): string {
  const list = orgs.length
    ? `<ul>${orgs.map((o) => `<li><a href="/dashboard/orgs/${encodeURIComponent(o)}">${escapeHtml(o)}</a></li>`).join('')}</ul>`
    : '<p>You are not a member of any organization that installed this App, so there is nothing to show.</p>';
  return page('Your organizations', `<h2>Your organizations</h2>\n${list}`, chrome);
}
