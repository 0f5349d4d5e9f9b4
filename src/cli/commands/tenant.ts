/**
 * tenant: shows the pool's default tenant (the one every command works in unless --tenant names
 * another) and the tenants it holds; `tenant NAME` makes NAME the default.
 */
import type { Command } from 'commander';
import { z } from 'zod';
import type { CliContext } from '../context.js';
import { defaultTenant, parseTenant } from '../default-tenant.js';
import { parseFlags } from '../flags.js';
import type { CliCommand } from './command.js';

async function show(ctx: CliContext, json: boolean): Promise<void> {
  await ctx.readStore(async (store) => {
    const chosen = await defaultTenant(store);
    const tenants = await store.listTenants();
    if (json) return ctx.json({ pool: ctx.poolLocation, default: chosen ?? null, tenants });
    ctx.print(
      [
        `default   ${chosen ?? '(none: pass --tenant, or choose one with `memory-transfer tenant NAME`)'}`,
        `tenants   ${tenants.join(', ') || 'none'}`,
      ].join('\n'),
    );
  });
}

async function choose(ctx: CliContext, name: string): Promise<void> {
  const tenant = parseTenant(name, 'tenant');
  await ctx.withStore(async (store) => {
    const before = await defaultTenant(store);
    if (before === tenant) return ctx.print(`the pool's default tenant is already ${tenant}`);
    await ctx.setDefaultTenant(store, tenant);
    const tenants = await store.listTenants();
    if (!tenants.includes(tenant) && tenants.length > 0) {
      ctx.io.err(
        `memory-transfer: note: ${tenant} holds nothing yet; the memories of ${tenants.join(', ')} stay where they are (--tenant reaches them)\n`,
      );
    }
  });
}

export const tenantCommand: CliCommand = {
  register(program: Command, ctx: CliContext) {
    program
      .command('tenant')
      .argument('[name]', 'the new default tenant: an organization or user name, e.g. acme')
      .option('--json', 'print {"pool","default","tenants"} as JSON')
      .action(async (name: string | undefined, raw: Record<string, unknown>) => {
        const opts = parseFlags({ json: z.boolean().optional() }, raw);
        if (name === undefined) await show(ctx, opts.json ?? false);
        else await choose(ctx, name);
      });
  },
};
