/**
 * Every command of `memory-transfer`, in the order `--help` lists them: its name, its usage and
 * description (what `--help` shows, kept here), and its implementation, imported only when the
 * command runs (or its own --help is asked for), so a command loads only what it uses (`recall`
 * never loads Probot, Octokit, OpenAI, pino, secretlint or the MCP SDK). To add one, write
 * src/cli/commands/<name>.ts exporting a CliCommand and add an entry here.
 */
import type { CliCommand } from './command.js';

export interface CommandEntry {
  name: string;
  /** what follows the name in the command list of --help, e.g. `[options] <id>` */
  usage: string;
  description: string;
  load(): Promise<CliCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'learn',
    usage: '[options]',
    description: 'learn fixes into the pool: from a local git repository or a fixes file (JSON Lines)',
    load: async () => (await import('./learn.js')).learnCommand,
  },
  {
    name: 'recall',
    usage: '[options] [text]',
    description: 'recall the insights most relevant to a task, from every repository of the pool',
    load: async () => (await import('./recall.js')).recallCommand,
  },
  {
    name: 'list',
    usage: '[options]',
    description: 'list the memories of the pool',
    load: async () => (await import('./list.js')).listCommand,
  },
  {
    name: 'show',
    usage: '[options] <id>',
    description: 'show one memory with its evidence and sources',
    load: async () => (await import('./show.js')).showCommand,
  },
  {
    name: 'approve',
    usage: '<id>',
    description: 'approve a memory: it becomes active and may be recalled',
    load: async () => (await import('./approve.js')).approveCommand,
  },
  {
    name: 'reject',
    usage: '<id>',
    description: 'reject a memory: it is kept for the record but never recalled',
    load: async () => (await import('./reject.js')).rejectCommand,
  },
  {
    name: 'forget',
    usage: '[options] <ids...>',
    description: 'forget memories: delete them from the pool (more than one asks first, or takes --yes)',
    load: async () => (await import('./forget.js')).forgetCommand,
  },
  {
    name: 'restore',
    usage: '<id>',
    description: 'restore an archived or rejected memory: it becomes active again',
    load: async () => (await import('./restore.js')).restoreCommand,
  },
  {
    name: 'edit',
    usage: '[options] <id>',
    description: "rewrite a memory's title, description or content (screened, audited)",
    load: async () => (await import('./edit.js')).editCommand,
  },
  {
    name: 'share',
    usage: '<id>',
    description: 'share a memory wider: shown in repositories less private than its sources (same org only)',
    load: async () => (await import('./share.js')).shareCommand,
  },
  {
    name: 'export',
    usage: '[options]',
    description: 'export the pool as versioned JSON Lines (the Action reads this file in pool-file mode)',
    load: async () => (await import('./export.js')).exportCommand,
  },
  {
    name: 'import',
    usage: '[options] <file>',
    description: 'import an export file into the pool: all of it in one transaction, or nothing',
    load: async () => (await import('./import.js')).importCommand,
  },
  {
    name: 'stats',
    usage: '[options]',
    description: 'show what the pool holds: memories by level and status, repositories, fixes',
    load: async () => (await import('./stats.js')).statsCommand,
  },
  {
    name: 'tenant',
    usage: '[options] [name]',
    description: "show the pool's default tenant and the tenants it holds; with NAME, make NAME the default",
    load: async () => (await import('./tenant.js')).tenantCommand,
  },
  {
    name: 'report',
    usage: '[options]',
    description: 'write the pool as one self-contained HTML page: transfer matrix, routines, pool health, insights',
    load: async () => (await import('./report.js')).reportCommand,
  },
  {
    name: 'audit',
    usage: '[options]',
    description:
      'show the audit log: who approved, rejected, forgot, archived, restored, shared or revoked what, and when',
    load: async () => (await import('./audit.js')).auditCommand,
  },
  {
    name: 'archive-stale',
    usage: '[options]',
    description: 'archive active memories unused for --days and never up-voted (audited; `approve` brings one back)',
    load: async () => (await import('./archive-stale.js')).archiveStaleCommand,
  },
  {
    name: 'serve',
    usage: '[options]',
    description:
      'run the GitHub App: webhooks, the recall API and the job worker (APP_ID, PRIVATE_KEY, WEBHOOK_SECRET)',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  {
    name: 'mcp',
    usage: '[options]',
    description: 'run an MCP server over stdio: agents recall insights mid-run and report what helped',
    load: async () => (await import('./mcp.js')).mcpCommand,
  },
  {
    name: 'backfill',
    usage: '[options]',
    description: "learn from an organization's merged pull requests (resumable; GITHUB_TOKEN or the App's credentials)",
    load: async () => (await import('./backfill.js')).backfillCommand,
  },
  {
    name: 'reembed',
    usage: '[options]',
    description:
      "fill in the insights' missing vectors (after an embedding failure), or re-embed all of them with --all (after a model change)",
    load: async () => (await import('./reembed.js')).reembedCommand,
  },
  {
    name: 'eval',
    usage: '[options] [file]',
    description: 'run the evaluation (precision@3 across repositories) on an eval set; needs a checkout',
    load: async () => (await import('./eval.js')).evalCommand,
  },
];
