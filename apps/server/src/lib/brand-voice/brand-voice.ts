import {
  brandProfileSchema,
  profileTerms,
  type BrandProfile,
  type BrandTarget,
  type BrandVersion,
  type BrandVersionSummary,
  type StyleCheck,
} from '@gem/contracts/brand-voice';
import { campaignChannels } from '@gem/contracts/campaign-channels';
import { OUTPUT_CHARACTER_LIMIT } from '@gem/contracts/text-rules';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { brandProfileVersions, users } from '../../db/schema/index';
import { AppError } from '../app-error';
import { createBudgetedWorker } from '../budgeted-worker';
import type { StyleCheckAnswer, StyleCheckRequest } from './style-check.worker';
import { brandPrompt, BRAND_PROMPT_MAX_TOKENS, BRAND_PROMPT_SHARE, type BrandPrompt } from './brand-prompt';
import type { ExpandedTerm, Inflection } from './inflection';
import { checkStyle, compileStyleRules, type CompiledStyleRules, type StyleRules } from './style-check';
import { termIssues } from './term-limits';

/**
 * The brand voice's one service on the server (issue 31): the profile's versions in the
 * database (a save expands its terms in the inflection worker and writes the next version), and
 * the profile in force as every generator and the check read it. Each instance keeps the version
 * in force for at most `refreshMs` (30 s), then asks the database for the newest version number
 * (one indexed read) and loads it if it changed: a save on one instance is in force on every
 * instance within that, and the instance that saved it at once.
 */

/** How long an instance uses the version it read before asking for the newest again. */
export const BRAND_REFRESH_MS = 30_000;

/**
 * Texts up to this many characters are checked on the event loop (a generation's output: well
 * under a millisecond); longer ones in the style check's worker thread (a 10,000-word text takes
 * tens of milliseconds, bench/style-check.md).
 */
export const INLINE_CHECK_CHARACTERS = 10_000;

/** The profile in force, ready to be sent and checked against. */
export type BrandInForce = {
  /** null: no profile saved yet (the check has the house's typography only, no prompt block). */
  version: number | null;
  profile: BrandProfile | null;
  /** The block for a prompt written for `target` within `budgetTokens`; null without a profile. */
  prompt(target: BrandTarget | undefined, budgetTokens: number): BrandPrompt | null;
  /** The style check of `text` written for `target` (its disclaimers and limits too). */
  check(text: string, target?: BrandTarget): StyleCheck;
};

/** What the profile may take of a prompt whose budget (without the profile) is `promptBudgetTokens`. */
export function brandBudget(promptBudgetTokens: number): number {
  return Math.min(BRAND_PROMPT_MAX_TOKENS, Math.floor(promptBudgetTokens * BRAND_PROMPT_SHARE));
}

/** The limits a target's text is checked against: a channel's whole-text limit, a tool's 600 characters. */
function limitsOf(target: BrandTarget | undefined): StyleRules['limits'] {
  if (!target) return undefined;
  if (target === 'article' || target === 'paid-ads' || target === 'teaser-generator') {
    return { characters: OUTPUT_CHARACTER_LIMIT };
  }
  const channel = campaignChannels[target as keyof typeof campaignChannels] as
    (typeof campaignChannels)[keyof typeof campaignChannels] | undefined;
  const only = channel?.limits.length === 1 ? channel.limits[0] : undefined;
  if (!only) return undefined;
  return only.unit === 'words' ? { words: only.max } : { characters: only.max };
}

/** The check's rules from a profile and its forms, for a text written for `target`. */
export function styleRulesOf(
  profile: BrandProfile | null,
  forms: readonly ExpandedTerm[],
  target: BrandTarget | undefined,
): StyleRules {
  const limits = limitsOf(target);
  if (!profile) return { typography: {}, ...(limits ? { limits } : {}) };
  const formsOf = new Map(forms.map((entry) => [entry.term, entry.words]));
  return {
    banned: profile.banned.map((entry) => ({
      term: entry.term,
      forms: formsOf.get(entry.term),
      reason: entry.reason,
      ...(entry.replacement ? { replacement: entry.replacement } : {}),
    })),
    preferred: profile.preferred.map((entry) => ({
      term: entry.term,
      ...(entry.reason ? { reason: entry.reason } : {}),
      replaces: entry.replaces.map((word) => ({ word, forms: formsOf.get(word) })),
    })),
    names: profile.names,
    disclaimers: profile.disclaimers
      .filter((entry) => target && entry.targets.includes(target))
      .map((entry) => entry.text),
    ...(limits ? { limits } : {}),
    typography: { acronyms: profile.acronyms },
  };
}

type Loaded = {
  version: number | null;
  profile: BrandProfile | null;
  forms: ExpandedTerm[];
  compiled: Map<string, CompiledStyleRules>;
};

function inForceOf(loaded: Loaded): BrandInForce {
  const rulesFor = (target: BrandTarget | undefined) => {
    const key = target ?? '';
    let rules = loaded.compiled.get(key);
    if (!rules) {
      rules = compileStyleRules(styleRulesOf(loaded.profile, loaded.forms, target));
      loaded.compiled.set(key, rules);
    }
    return rules;
  };
  return {
    version: loaded.version,
    profile: loaded.profile,
    prompt(target, budgetTokens) {
      if (!loaded.profile || loaded.version === null) return null;
      return brandPrompt(loaded.profile, loaded.version, target, budgetTokens);
    },
    check(text, target) {
      const result = checkStyle(text, rulesFor(target));
      return { ...result, version: loaded.version };
    },
  };
}

/** No profile saved: no prompt block, the house's typography (and a target's limits) only. */
export function brandWithoutProfile(): BrandInForce {
  return inForceOf({ version: null, profile: null, forms: [], compiled: new Map() });
}

export type BrandVoiceDeps = {
  db: Db;
  /** Expands terms at a save (a worker thread); only saves need it. */
  inflection?: Pick<Inflection, 'expand'> | undefined;
  refreshMs?: number;
  now?: () => number;
};

const summaryColumns = {
  version: brandProfileVersions.version,
  profile: brandProfileVersions.profile,
  note: brandProfileVersions.note,
  savedAt: brandProfileVersions.savedAt,
  savedBy: users.email,
};

function summaryOf(row: {
  version: number;
  profile: unknown;
  note: string | null;
  savedAt: Date;
  savedBy: string | null;
}): BrandVersionSummary {
  const profile = row.profile as BrandProfile;
  return {
    version: row.version,
    savedAt: row.savedAt.toISOString(),
    savedBy: row.savedBy,
    note: row.note,
    counts: {
      banned: profile.banned.length,
      preferred: profile.preferred.length,
      names: profile.names.length,
      disclaimers: profile.disclaimers.length,
    },
  };
}

export function createBrandVoice({
  db,
  inflection,
  refreshMs = BRAND_REFRESH_MS,
  now = Date.now,
}: BrandVoiceDeps) {
  let loaded: Loaded = { version: null, profile: null, forms: [], compiled: new Map() };
  const checker = createBudgetedWorker<StyleCheckRequest, StyleCheckAnswer>({
    script: new URL('./style-check.worker.ts', import.meta.url),
    limits: { budgetMs: 5_000, idleMs: 60_000, maxMemoryMb: 256 },
    failure: { subject: 'the text', error: (message) => new AppError(500, 'internal_error', message) },
  });
  let readAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<Loaded> | null = null;

  async function newestVersion(): Promise<number | null> {
    const [row] = await db
      .select({ version: sql<number | null>`max(${brandProfileVersions.version})` })
      .from(brandProfileVersions);
    return row?.version ?? null;
  }

  async function load(version: number | null): Promise<Loaded> {
    if (version === null) return { version: null, profile: null, forms: [], compiled: new Map() };
    const [row] = await db
      .select({ profile: brandProfileVersions.profile, forms: brandProfileVersions.forms })
      .from(brandProfileVersions)
      .where(eq(brandProfileVersions.version, version));
    if (!row) return { version: null, profile: null, forms: [], compiled: new Map() };
    return {
      version,
      profile: brandProfileSchema.parse(row.profile),
      forms: row.forms as ExpandedTerm[],
      compiled: new Map(),
    };
  }

  async function refresh(): Promise<Loaded> {
    const version = await newestVersion();
    if (version !== loaded.version) loaded = await load(version);
    readAt = now();
    return loaded;
  }

  const service = {
    /**
     * The style check of any text against the profile in force (the Check text page, every Check
     * button): a long text in the worker thread, so the event loop never waits for it.
     */
    async checkText(text: string, target?: BrandTarget): Promise<StyleCheck> {
      const brand = await service.inForce();
      if (text.length <= INLINE_CHECK_CHARACTERS) return brand.check(text, target);
      const { version, profile, forms } = loaded;
      const key = `${version ?? 'none'}:${target ?? ''}`;
      let answer = await checker.run({ key, text });
      if (answer.type === 'need-rules') {
        answer = await checker.run({ key, rules: styleRulesOf(profile, forms, target), text });
      }
      if (answer.type !== 'result') {
        throw new AppError(500, 'internal_error', answer.type === 'error' ? answer.message : 'no rules');
      }
      return { ...answer.result, version };
    },

    /** Stops the style check's worker thread. */
    close: () => checker.close(),

    /** The profile in force on this instance: read again after `refreshMs`, once for all callers. */
    async inForce(): Promise<BrandInForce> {
      if (now() - readAt < refreshMs) return inForceOf(loaded);
      pending ??= refresh().finally(() => {
        pending = null;
      });
      return inForceOf(await pending);
    },

    /**
     * Saves `profile` as the next version. `basedOn` is the version the editor started from
     * (null: none): when someone saved another since, the save is refused (409) rather than
     * undoing theirs. Terms over the limits are refused (400) before any expansion.
     */
    async save(request: {
      profile: BrandProfile;
      note?: string | undefined;
      basedOn: number | null;
      userId: string | null;
      /** Writes what records the save (the audit entry) in the version's own transaction. */
      record?: (tx: Pick<Db, 'insert'>, version: number) => Promise<void>;
    }): Promise<BrandVersionSummary> {
      const terms = profileTerms(request.profile);
      const issues = termIssues(terms);
      if (issues.length > 0) {
        throw new AppError(400, 'bad_request', issues.map((issue) => issue.message).join(' '));
      }
      if (!inflection) throw new Error('the brand voice was built without its inflection');
      const unique = [...new Set(terms)];
      const expanded = await inflection.expand(unique);
      const version = (request.basedOn ?? 0) + 1;
      // The version and what records it (the audit entry) in one transaction, while the newest
      // version is still the one the editor started from.
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select({ version: sql<number | null>`max(${brandProfileVersions.version})` })
          .from(brandProfileVersions);
        const newest = row?.version ?? null;
        if (newest !== request.basedOn) return { saved: false as const, newest };
        const inserted = await tx
          .insert(brandProfileVersions)
          .values({
            version,
            profile: request.profile,
            forms: expanded,
            note: request.note || null,
            savedBy: request.userId,
          })
          .onConflictDoNothing()
          .returning({ version: brandProfileVersions.version });
        // Another save of the same version got there first.
        if (inserted.length === 0) return { saved: false as const, newest: version };
        await request.record?.(tx, version);
        return { saved: true as const };
      });
      if (!outcome.saved) {
        const { newest } = outcome;
        throw new AppError(
          409,
          'conflict',
          request.basedOn !== null && (newest === null || newest < request.basedOn)
            ? `There is no version ${request.basedOn} of the brand profile to start from. Reload it, then make your changes again.`
            : `Someone saved version ${newest} of the brand profile while you were editing ${request.basedOn === null ? 'a new profile' : `version ${request.basedOn}`}. Reload it, then make your changes again.`,
        );
      }
      loaded = { version, profile: request.profile, forms: expanded, compiled: new Map() };
      readAt = now();
      const [row] = await db
        .select(summaryColumns)
        .from(brandProfileVersions)
        .leftJoin(users, eq(users.id, brandProfileVersions.savedBy))
        .where(eq(brandProfileVersions.version, version));
      return summaryOf(row!);
    },

    /** Every version, newest first. */
    async versions(): Promise<BrandVersionSummary[]> {
      const rows = await db
        .select(summaryColumns)
        .from(brandProfileVersions)
        .leftJoin(users, eq(users.id, brandProfileVersions.savedBy))
        .orderBy(desc(brandProfileVersions.version));
      return rows.map(summaryOf);
    },

    /** One version with its profile and forms; null when there is no such version. */
    async version(version: number | 'current'): Promise<BrandVersion | null> {
      const number = version === 'current' ? await newestVersion() : version;
      if (number === null) return null;
      const [row] = await db
        .select({ ...summaryColumns, forms: brandProfileVersions.forms })
        .from(brandProfileVersions)
        .leftJoin(users, eq(users.id, brandProfileVersions.savedBy))
        .where(eq(brandProfileVersions.version, number));
      if (!row) return null;
      return {
        ...summaryOf(row),
        profile: brandProfileSchema.parse(row.profile),
        forms: row.forms as BrandVersion['forms'],
      };
    },
  };
  return service;
}

export type BrandVoice = ReturnType<typeof createBrandVoice>;
