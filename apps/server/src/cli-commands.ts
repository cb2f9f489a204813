import { parseArgs } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config';
import type { Db } from './db/client';
import { createScheduler } from './lib/scheduler';
import {
  COMPETITOR_CRAWL_TASK,
  createCompetitorCrawler,
  scheduleCompetitorCrawl,
  type CrawlOutcome,
} from './modules/competitor-search/crawler/crawler';
import { crawlStatus } from './modules/competitor-search/crawler/crawl-status';
import { createLocalAccounts, LocalAccountError } from './integrations/oidc/embedded/local-accounts';
import { EMBEDDED_ISSUER_KEY } from './integrations/oidc/token-verifier';
import { AccessAdminError, createAccessAdmin } from './modules/identity/identity.service';

export const usage = `Usage: npm run gem -w apps/server -- <command>

Local accounts (the embedded sign-in, used when GEM_OIDC_ISSUER is not set):
  accounts add <email> [--name "Full Name"] [--grant]   the password is read from the terminal or stdin
  accounts remove <email>
  accounts list

App access (who may use GEM once signed in):
  access grant <email>
  access revoke <email>
  access list

Competitor search (GEM's own index of the competitors' Polish sites):
  competitors crawl [key]   crawl every competitor's site now, or one; not while a server crawls
  competitors status        pages per site, last crawl, last error
`;

export type CliIo = {
  /** Reads a password: from the terminal without echo, or the first line of piped stdin. */
  readPassword(prompt: string): Promise<string>;
  out(line: string): void;
  err(line: string): void;
};

class UsageError extends Error {}

const date = (d: Date | null) => (d ? d.toISOString().replace('T', ' ').slice(0, 16) : '-');

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function crawlSummary(o: CrawlOutcome): string {
  return `${o.key}: ${plural(o.stored, 'page')} stored, ${o.unchanged} unchanged, ${o.skipped} skipped, ${o.failed} failed`;
}

/** Runs one command of the `gem` tool; returns the process exit code. */
export async function runCli(
  argv: string[],
  {
    config,
    db,
    io,
    log = pino({ level: 'warn' }, pino.destination(2)),
  }: { config: Config; db: Db; io: CliIo; log?: FastifyBaseLogger },
) {
  const accounts = createLocalAccounts(db);
  const admin = createAccessAdmin({ db });
  const embedded = config.auth.mode === 'embedded';
  // Grants name a user by issuer + subject; this is the issuer the running server records.
  const issuer = embedded ? EMBEDDED_ISSUER_KEY : config.auth.issuer;

  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: 'string' }, grant: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
  });
  const [group, command, email, ...extra] = positionals;
  const { competitors } = config;
  const needEmail = () => {
    if (!email || extra.length > 0) throw new UsageError(`${group} ${command} takes one e-mail address.`);
    return email;
  };

  const grant = async (target: string) => {
    if (embedded) {
      const account = await accounts.findByEmail(target);
      if (!account)
        throw new AccessAdminError(
          `No local account has the e-mail ${target}. Add it first: accounts add ${target}`,
        );
      return admin.grant({ issuer, subject: account.id, email: account.email, name: account.displayName });
    }
    return admin.grant({ issuer, email: target });
  };

  try {
    if (values.help || !group) {
      io.out(usage);
      return group ? 0 : 2;
    }
    switch (`${group} ${command ?? ''}`) {
      case 'accounts add': {
        const target = needEmail();
        if (!embedded) {
          throw new LocalAccountError(
            'GEM signs people in through GEM_OIDC_ISSUER, so local accounts are not used. Manage accounts in your identity provider.',
          );
        }
        const password = await io.readPassword(`Password for ${target}: `);
        const account = await accounts.add({ email: target, password, displayName: values.name ?? null });
        io.out(`Added the local account ${account.email}.`);
        if (values.grant) {
          await grant(account.email);
          io.out(`${account.email} may now use GEM.`);
        } else {
          io.out(`It cannot use GEM until you run: access grant ${account.email}`);
        }
        return 0;
      }
      case 'accounts remove': {
        const target = needEmail();
        const removed = await accounts.remove(target);
        if (!removed) throw new LocalAccountError(`No local account has the e-mail ${target}.`);
        // Its user record and grant go too, so a new account with this e-mail starts without access.
        await admin.forgetUser({ issuer: EMBEDDED_ISSUER_KEY, subject: removed.id });
        io.out(
          `Removed the local account ${removed.email} and its access. Its sessions end at their next use.`,
        );
        return 0;
      }
      case 'accounts list': {
        const list = await accounts.list();
        const granted = new Set(
          (await admin.list()).filter((a) => a.issuer === EMBEDDED_ISSUER_KEY).map((a) => a.subject),
        );
        if (list.length === 0) io.out('No local accounts.');
        else {
          const rows = list.map((a) => [
            a.email,
            a.displayName ?? '',
            date(a.createdAt),
            granted.has(a.id) ? 'yes' : 'no',
          ]);
          for (const line of table([['EMAIL', 'NAME', 'CREATED', 'ACCESS'], ...rows])) io.out(line);
        }
        if (!embedded) io.out('(GEM_OIDC_ISSUER is set: these accounts cannot sign in.)');
        return 0;
      }
      case 'access grant': {
        const target = needEmail();
        const { alreadyGranted } = await grant(target);
        io.out(alreadyGranted ? `${target} already has access.` : `${target} may now use GEM.`);
        return 0;
      }
      case 'access revoke': {
        const target = needEmail();
        const { revoked } = await admin.revoke({ issuer, email: target });
        io.out(
          revoked > 0
            ? `Revoked access for ${target}. Running servers stop accepting them within ${config.access.decisionCacheMs / 1000} seconds.`
            : `${target} had no access grant (access through an allowed domain or role is set in the configuration).`,
        );
        return 0;
      }
      case 'access list': {
        const list = (await admin.list()).filter((a) => a.issuer === issuer);
        if (list.length === 0) io.out('No one is on the access list.');
        else {
          const rows = list.map((a) => [
            a.email ?? '(no e-mail)',
            a.name ?? '',
            date(a.grantedAt),
            date(a.lastSeenAt),
          ]);
          for (const line of table([['EMAIL', 'NAME', 'GRANTED', 'LAST SEEN'], ...rows])) io.out(line);
        }
        const { allowedDomains, requiredRoles } = config.access;
        if (allowedDomains.length > 0)
          io.out(`Also allowed: anyone with an e-mail at ${allowedDomains.join(', ')}.`);
        if (requiredRoles.length > 0)
          io.out(`Also allowed: anyone whose token has the role ${requiredRoles.join(' or ')}.`);
        return 0;
      }
      case 'competitors crawl': {
        const key = email;
        if (extra.length > 0) throw new UsageError('competitors crawl takes at most one competitor key.');
        if (key && !competitors.list.some((c) => c.key === key)) {
          throw new UsageError(
            `No competitor has the key ${key}. The keys: ${competitors.list.map((c) => c.key).join(', ')}.`,
          );
        }
        const crawler = createCompetitorCrawler({
          db,
          competitors: competitors.list,
          delayMs: competitors.crawlDelayMs,
          maxPagesPerRound: competitors.maxPagesPerRound,
          allowPrivateHosts: competitors.allowPrivateHosts,
          log,
        });
        // Through the scheduler's lease: never beside a server's round, nor another command's.
        const scheduler = createScheduler({ db, log });
        let outcomes: CrawlOutcome[] = [];
        scheduleCompetitorCrawl(scheduler, crawler, competitors.crawlMinutes, {
          keys: key ? [key] : undefined,
          onRound: (done) => (outcomes = done),
        });
        try {
          io.out(`Crawling ${key ?? `${plural(competitors.list.length, 'competitor')}' sites`}…`);
          if (!(await scheduler.runNow(COMPETITOR_CRAWL_TASK, { force: true }))) {
            io.err(
              'A GEM server is crawling the competitors right now. Try again when it is done (competitors status).',
            );
            return 1;
          }
        } finally {
          await scheduler.stop();
          await crawler.close();
        }
        for (const o of outcomes) {
          io.out(crawlSummary(o));
          if (o.error) io.out(`  problem: ${o.error}`);
        }
        return outcomes.some((o) => o.error) ? 1 : 0;
      }
      case 'competitors status': {
        if (email) throw new UsageError('competitors status takes no arguments.');
        const status = await crawlStatus(db, competitors.list);
        const rows = status.map((s) => [
          s.key,
          s.site,
          s.samplePages > 0 && s.pages === 0 ? `${s.pages} (+${s.samplePages} samples)` : String(s.pages),
          s.unfinished ? `started ${date(s.lastStartedAt)}, not finished` : date(s.lastFinishedAt),
          s.lastFinishedAt || s.unfinished ? (s.lastError ? 'yes, below' : 'none') : '-',
        ]);
        for (const line of table([['KEY', 'SITE', 'PAGES', 'LAST CRAWL', 'ERRORS'], ...rows])) io.out(line);
        for (const s of status) {
          if (s.lastError) io.out(`${s.key}: ${s.lastError}`);
        }
        io.out(
          competitors.crawl
            ? `Servers crawl at start and every ${competitors.crawlMinutes} minutes (GEM_COMPETITORS_CRAWL_MINUTES).`
            : 'Servers do not crawl on their own (GEM_COMPETITORS_CRAWL=false); competitors crawl runs one round.',
        );
        return 0;
      }
      default:
        throw new UsageError(`Unknown command: ${positionals.join(' ')}`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`${err.message}\n\n${usage}`);
      return 2;
    }
    if (err instanceof LocalAccountError || err instanceof AccessAdminError) {
      io.err(err.message);
      return 1;
    }
    throw err;
  }
}
